// Command pulumi-resource-comp is e2e/component's test plugin: a component
// provider written with plinth's SDK. Its component, comp:index:Site,
// registers one comp:index:Item child per name in its "items" input, each
// holding the component's "label" (updated in place when it changes) and
// "zone" (replacing the item when it changes). An item named "refuse" is
// refused by the provider's Create, so a program can make a child fail.
// Its method comp:index:Site/url answers an item's address.
//
// It is built by e2e/component's TestMain and found by plinth on
// PLINTH_PLUGIN_PATH; it is not a product.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ItemArgs are an item's inputs.
type ItemArgs struct {
	Name  string `plinth:"name,replaceOnChanges" doc:"The item's name."`
	Label string `plinth:"label" doc:"Updated in place when it changes."`
	Zone  string `plinth:"zone,replaceOnChanges" doc:"Replaces the item when it changes."`
}

// ItemState is what the provider reports for an item.
type ItemState struct {
	ItemArgs
	Path string `plinth:"path" doc:"Where the item lives."`
}

// Item is the child resource type.
type Item struct{}

// Create makes an item, or refuses one named "refuse".
func (Item) Create(_ context.Context, op provider.CreateOp[ItemArgs]) (provider.CreateResult[ItemState], error) {
	if op.Inputs.Name == "refuse" {
		return provider.CreateResult[ItemState]{}, errors.New("items named \"refuse\" are refused by this provider")
	}
	id := op.Inputs.Zone + "/" + op.Inputs.Name
	return provider.CreateResult[ItemState]{ID: id, Outputs: ItemState{ItemArgs: op.Inputs, Path: id}}, nil
}

// Update changes an item's label in place.
func (Item) Update(_ context.Context, op provider.UpdateOp[ItemArgs, ItemState]) (provider.UpdateResult[ItemState], error) {
	return provider.UpdateResult[ItemState]{Outputs: ItemState{ItemArgs: op.News, Path: op.OldOutputs.Path}}, nil
}

// SiteArgs are the component's inputs.
type SiteArgs struct {
	Items []string `plinth:"items" doc:"One item is made per name."`
	Label string   `plinth:"label" doc:"Every item's label."`
	Zone  string   `plinth:"zone" doc:"Every item's zone."`
}

// SiteOutputs are the component's outputs.
type SiteOutputs struct {
	Paths []string `plinth:"paths" doc:"The items' paths."`
	Count int      `plinth:"count" doc:"How many items there are."`
}

// site builds the component: one item per name in inputs.items.
func site(ctx context.Context, c provider.ComponentContext, inputs resource.Object) (resource.Object, error) {
	items := inputs["items"]
	if items.Kind() != resource.ArrayKind {
		return nil, fmt.Errorf("input \"items\" must be a list of names, not %s", items.Kind())
	}
	var paths []resource.Value
	for _, n := range items.Array() {
		child, err := c.Register(ctx, "comp:index:Item", n.Str(), resource.Object{
			"name": n, "label": inputs["label"], "zone": inputs["zone"],
		})
		if err != nil {
			return nil, err
		}
		paths = append(paths, child.Outputs["path"])
	}
	return resource.Object{"paths": resource.NewArray(paths...), "count": resource.NewNumber(float64(len(paths)))}, nil
}

// url is the component's method comp:index:Site/url: the address of one
// of its items.
func url(_ context.Context, self resource.Value, args resource.Object) (resource.Object, error) {
	return resource.Object{"url": resource.NewString("https://" + args["item"].Str() + ".example/" + self.Str())}, nil
}

func main() {
	p, err := provider.New(provider.Info{Name: "comp", Version: "0.1.0"},
		provider.WithResource[ItemArgs, ItemState]("comp:index:Item", Item{}, "An item of a site."),
		provider.WithComponent[SiteArgs, SiteOutputs]("comp:index:Site", provider.ComponentFunc(site), "A site: one item per name."),
		provider.WithMethod("comp:index:Site/url", url, "The address of one of the site's items."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pulumiserve.Main(p)
}
