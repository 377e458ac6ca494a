package provider_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// BannerArgs are the inputs of a banner: what a program sets.
type BannerArgs struct {
	Text   string `plinth:"text" doc:"The text to shout."`
	Times  int    `plinth:"times" default:"1" doc:"How many times."`
	Secret string `plinth:"secret,optional,secret" doc:"Never shown."`
}

// BannerState is what the provider reports: the inputs and the banner.
type BannerState struct {
	BannerArgs
	Banner string `plinth:"banner" doc:"The banner."`
}

// Banner is the resource type. It implements only Create: Read, Update and
// Delete get the SDK's defaults (every change replaces it, and deleting it
// does nothing).
type Banner struct{}

func (Banner) Create(ctx context.Context, op provider.CreateOp[BannerArgs]) (provider.CreateResult[BannerState], error) {
	b := strings.Repeat(strings.ToUpper(op.Inputs.Text)+"! ", op.Inputs.Times)
	return provider.CreateResult[BannerState]{
		ID:      "banner-1",
		Outputs: BannerState{BannerArgs: op.Inputs, Banner: strings.TrimSpace(b)},
	}, nil
}

// ExampleNew writes a one-resource provider and drives it through the
// generic Provider interface, as a server would.
func ExampleNew() {
	p, err := provider.New(provider.Info{Name: "shout", Version: "0.1.0"},
		provider.WithResource[BannerArgs, BannerState]("shout:index:Banner", Banner{}, "A shouted banner."))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		panic(err)
	}
	urn := resource.NewURN("dev", "demo", "", "shout:index:Banner", "hello")

	// Check reports every bad property at once.
	bad, _ := p.Check(ctx, provider.CheckRequest{URN: urn, News: resource.ObjectFromGo(map[string]any{"txt": "hi"})})
	for _, f := range bad.Failures {
		fmt.Println("failure:", f)
	}

	// Check applies defaults; Create returns the ID and outputs.
	checked, _ := p.Check(ctx, provider.CheckRequest{URN: urn, News: resource.Object{
		"text":   resource.NewString("hi"),
		"secret": resource.NewString("s3cret"),
	}})
	created, _ := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
	fmt.Println(created.ID, created.Outputs["banner"], created.Outputs["secret"])

	// In a preview nothing is created: outputs not known yet are unknown.
	preview, _ := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs, Preview: true})
	fmt.Println(preview.Outputs["banner"])

	// Without an Updater, a change replaces the resource.
	diff, _ := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: resource.ObjectFromGo(map[string]any{"text": "hi", "times": 2, "secret": "s3cret"})})
	fmt.Println(diff.Changes, diff.ReplaceKeys)
	// Output:
	// failure: txt: unknown property "txt"; did you mean "text"?
	// failure: text: missing required property "text"
	// banner-1 "HI!" [secret]
	// [unknown]
	// some [times]
}
