package pulumiserve

import (
	"context"
	"errors"
	"strings"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// The test provider: a Box with a secret password, a replacing size and an
// ARN computed on creation; a required region in its configuration; and an
// upper-casing function.

type boxConfig struct {
	Region string `plinth:"region" doc:"Where boxes live."`
}

type boxArgs struct {
	Name     string            `plinth:"name" doc:"The box's name."`
	Password string            `plinth:"password,optional,secret"`
	Size     int               `plinth:"size,optional,replaceOnChanges" default:"1"`
	Tags     map[string]string `plinth:"tags,optional"`
}

type boxState struct {
	boxArgs
	ARN string `plinth:"arn,computed" doc:"Known once the box exists."`
}

type box struct{}

func (box) Create(ctx context.Context, op provider.CreateOp[boxArgs]) (provider.CreateResult[boxState], error) {
	cfg := provider.GetConfig[boxConfig](ctx)
	out := boxState{boxArgs: op.Inputs, ARN: "arn:" + cfg.Region + ":" + op.Inputs.Name}
	if op.Inputs.Name == "partial" {
		return provider.CreateResult[boxState]{ID: "box-partial", Outputs: out}, errors.New("the box never became ready")
	}
	return provider.CreateResult[boxState]{ID: "box-" + op.Inputs.Name, Outputs: out}, nil
}

func (box) Read(_ context.Context, op provider.ReadOp[boxArgs, boxState]) (provider.ReadResult[boxArgs, boxState], error) {
	if op.ID == "box-gone" {
		return provider.ReadResult[boxArgs, boxState]{}, nil
	}
	return provider.ReadResult[boxArgs, boxState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}

func (box) Update(_ context.Context, op provider.UpdateOp[boxArgs, boxState]) (provider.UpdateResult[boxState], error) {
	return provider.UpdateResult[boxState]{Outputs: boxState{boxArgs: op.News, ARN: op.OldOutputs.ARN}}, nil
}

func (box) Delete(context.Context, provider.DeleteOp[boxArgs, boxState]) error { return nil }

type upperArgs struct {
	Text string `plinth:"text"`
}

type upperResult struct {
	Text string `plinth:"text"`
}

func upper(_ context.Context, a upperArgs) (upperResult, error) {
	return upperResult{Text: strings.ToUpper(a.Text)}, nil
}

func newTestProvider() provider.Provider {
	p, err := provider.New(provider.Info{Name: "test", Version: "0.3.0", Description: "A provider for the server's tests."},
		provider.WithConfig[boxConfig](),
		provider.WithResource[boxArgs, boxState]("test:index:Box", box{}, "A box."),
		provider.WithFunction("test:index:upper", upper, "Upper-cases text."),
	)
	if err != nil {
		panic(err)
	}
	return p
}
