// An explicit provider (pulumi:providers:plinth) whose root is a
// subdirectory, resources created through it and through the default
// provider, dependsOn and deleteBeforeReplace.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Provider is an explicit instance of the plinth provider.
type Provider struct {
	pulumi.ProviderResourceState
}

// The value the edit changes.
const version = "1"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		var sub Provider
		if err := ctx.RegisterResource("pulumi:providers:plinth", "sub", pulumi.Map{"root": pulumi.String("sub")}, &sub); err != nil {
			return err
		}
		first, err := newFile(ctx, "first", pulumi.Map{
			"path": pulumi.String("first.txt"), "content": pulumi.String("under sub\n"),
		}, pulumi.Provider(&sub))
		if err != nil {
			return err
		}
		second, err := newFile(ctx, "second", pulumi.Map{
			"path": pulumi.String("second.txt"), "content": pulumi.String("at the root\n"),
		}, pulumi.DependsOn([]pulumi.Resource{first}))
		if err != nil {
			return err
		}
		n, err := newInteger(ctx, "n", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(100), "seed": pulumi.String("providers-" + version),
		}, pulumi.Provider(&sub), pulumi.DeleteBeforeReplace(true))
		if err != nil {
			return err
		}
		ctx.Export("first", first.Sha256)
		ctx.Export("second", second.Size)
		ctx.Export("n", n.Result)
		return nil
	})
}
