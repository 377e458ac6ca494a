// Transforms: a stack transform that caps every integer, sets every
// file's permissions and makes the sha256 of secret files a secret
// output; a component's transform (reaching its children) that seeds
// its integers.
package main

import (
	"context"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// The values the edit changes.
const (
	permissions = "0600"
	seedPrefix  = "group-"
)

// stackTransform applies to every resource registered after it.
func stackTransform(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
	switch args.Type {
	case "plinth:random:Integer":
		args.Props["max"] = pulumi.Int(50)
	case "plinth:fs:File":
		args.Props["permissions"] = pulumi.String(permissions)
		if strings.HasPrefix(args.Name, "secret-") {
			args.Opts.AdditionalSecretOutputs = append(args.Opts.AdditionalSecretOutputs, "sha256")
		}
	default:
		return nil
	}
	return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
}

// seedIntegers seeds the integers under the component it is given to.
func seedIntegers(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
	if args.Type != "plinth:random:Integer" {
		return nil
	}
	args.Props["seed"] = pulumi.String(seedPrefix + args.Name)
	return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
}

// Group is a component whose children its transform reaches.
type Group struct {
	pulumi.ResourceState
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		if err := ctx.RegisterResourceTransform(stackTransform); err != nil {
			return err
		}
		free, err := newInteger(ctx, "free", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(1000), "seed": pulumi.String("free"),
		})
		if err != nil {
			return err
		}
		if _, err := newFile(ctx, "free-file", pulumi.Map{
			"path": pulumi.String("out/free.txt"), "content": pulumi.Sprintf("free %d\n", free.Result),
		}); err != nil {
			return err
		}
		group := &Group{}
		if err := ctx.RegisterComponentResource("corpus:index:Group", "group", group,
			pulumi.Transforms([]pulumi.ResourceTransform{seedIntegers})); err != nil {
			return err
		}
		g, err := newInteger(ctx, "g-n", pulumi.Map{"min": pulumi.Int(1), "max": pulumi.Int(1000)}, pulumi.Parent(group))
		if err != nil {
			return err
		}
		if _, err := newFile(ctx, "g-file", pulumi.Map{
			"path": pulumi.String("out/g.txt"), "content": pulumi.Sprintf("group %d\n", g.Result),
		}, pulumi.Parent(group)); err != nil {
			return err
		}
		secret, err := newFile(ctx, "secret-file", pulumi.Map{
			"path": pulumi.String("out/secret.txt"), "content": pulumi.String("not so secret\n"),
		})
		if err != nil {
			return err
		}
		ctx.Export("free", free.Result)
		ctx.Export("g", g.Result)
		ctx.Export("secretSha256", secret.Sha256)
		return nil
	})
}
