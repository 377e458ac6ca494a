// Command terraform-provider-plinthtest is a test provider for e2e/tfserve,
// written with plinth's SDK and served with tfserve. Its one resource,
// plinthtest_thing, exists in two schema versions, chosen when the binary
// is built (-ldflags "-X main.schema=1"): version 0 has the property name,
// version 1 renamed it title and upgrades version 0 state. Its token is
// sensitive. plinthtest_boom panics in Create. plinthtest_painted has a
// default on a field of a nested object. It is not a product.
package main

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

// schema is the schema version this binary serves: "0" or "1".
var schema = "0"

// ThingV0Args are version 0's inputs.
type ThingV0Args struct {
	Name  string `plinth:"name" doc:"The thing's name."`
	Token string `plinth:"token,optional,secret" doc:"A secret."`
}

// ThingV0State are version 0's outputs.
type ThingV0State struct {
	ThingV0Args
	Length int `plinth:"length" doc:"The name's length."`
}

type thingV0 struct{}

func (thingV0) Create(_ context.Context, op provider.CreateOp[ThingV0Args]) (provider.CreateResult[ThingV0State], error) {
	return provider.CreateResult[ThingV0State]{ID: "thing-" + op.Inputs.Name,
		Outputs: ThingV0State{ThingV0Args: op.Inputs, Length: len(op.Inputs.Name)}}, nil
}

// ThingArgs are version 1's inputs: name became title.
type ThingArgs struct {
	Title string `plinth:"title" doc:"The thing's title (name in version 0)."`
	Token string `plinth:"token,optional,secret" doc:"A secret."`
}

// ThingState are version 1's outputs.
type ThingState struct {
	ThingArgs
	Length int `plinth:"length" doc:"The title's length."`
}

type thing struct{}

func (thing) Create(_ context.Context, op provider.CreateOp[ThingArgs]) (provider.CreateResult[ThingState], error) {
	return provider.CreateResult[ThingState]{ID: "thing-" + op.Inputs.Title,
		Outputs: ThingState{ThingArgs: op.Inputs, Length: len(op.Inputs.Title)}}, nil
}

func (thing) SchemaVersion() int64 { return 1 }

// UpgradeState renames name to title.
func (thing) UpgradeState(_ context.Context, op provider.UpgradeStateOp) (provider.UpgradeStateResult, error) {
	if op.Version != 0 {
		return provider.UpgradeStateResult{}, fmt.Errorf("unexpected version %d", op.Version)
	}
	st := op.State.Copy()
	st["title"] = st["name"]
	delete(st, "name")
	return provider.UpgradeStateResult{State: st}, nil
}

// BoomArgs are plinthtest_boom's inputs.
type BoomArgs struct {
	Fuse string `plinth:"fuse"`
}

type boom struct{}

func (boom) Create(context.Context, provider.CreateOp[BoomArgs]) (provider.CreateResult[BoomArgs], error) {
	panic("the fuse was lit")
}

// Paint is a nested object with a default on one field.
type Paint struct {
	Coats int    `plinth:"coats"`
	Color string `plinth:"color" default:"blue"`
}

// PaintedArgs are plinthtest_painted's inputs.
type PaintedArgs struct {
	Paint *Paint `plinth:"paint,optional"`
}

type painted struct{}

func (painted) Create(_ context.Context, op provider.CreateOp[PaintedArgs]) (provider.CreateResult[PaintedArgs], error) {
	return provider.CreateResult[PaintedArgs]{ID: "painted", Outputs: op.Inputs}, nil
}

func (painted) Update(_ context.Context, op provider.UpdateOp[PaintedArgs, PaintedArgs]) (provider.UpdateResult[PaintedArgs], error) {
	return provider.UpdateResult[PaintedArgs]{Outputs: op.News}, nil
}

func main() {
	thingOpt := provider.WithResource[ThingArgs, ThingState]("plinthtest:index:Thing", thing{}, "A thing (schema version 1).")
	if schema == "0" {
		thingOpt = provider.WithResource[ThingV0Args, ThingV0State]("plinthtest:index:Thing", thingV0{}, "A thing (schema version 0).")
	}
	p, err := provider.New(provider.Info{Name: "plinthtest", Version: "1.0.0"}, thingOpt,
		provider.WithResource[BoomArgs, BoomArgs]("plinthtest:index:Boom", boom{}, "Panics in Create."),
		provider.WithResource[PaintedArgs, PaintedArgs]("plinthtest:index:Painted", painted{}, "Has a nested default."))
	if err != nil {
		panic(err)
	}
	tfserve.Main("registry.terraform.io/plinth-iac/plinthtest", p)
}
