// The edit: a StackReference to this same stack reads the outputs the
// first up wrote (plain, secret and a number) into a new file and new
// outputs; the outputs it reads keep their values, so a second preview
// finds nothing to change.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		n, err := newInteger(ctx, "n", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(1000), "seed": pulumi.String("stackref"),
		})
		if err != nil {
			return err
		}
		self := "organization/" + ctx.Project() + "/" + ctx.Stack()
		ref, err := pulumi.NewStackReference(ctx, self, nil)
		if err != nil {
			return err
		}
		greeting := ref.GetStringOutput(pulumi.String("greeting"))
		secret := ref.GetStringOutput(pulumi.String("secretWord"))
		if _, err := newFile(ctx, "seen", pulumi.Map{
			"path":    pulumi.String("out/seen.txt"),
			"content": pulumi.Sprintf("%s, %v\n", greeting, ref.GetOutput(pulumi.String("n"))),
		}); err != nil {
			return err
		}
		ctx.Export("greeting", pulumi.String("hello"))
		ctx.Export("secretWord", pulumi.ToSecret(pulumi.String("xyzzy")))
		ctx.Export("n", n.Result)
		ctx.Export("previousGreeting", greeting)
		ctx.Export("previousSecret", secret)
		ctx.Export("previousN", ref.GetOutput(pulumi.String("n")))
		ctx.Export("refName", ref.Name)
		return nil
	})
}
