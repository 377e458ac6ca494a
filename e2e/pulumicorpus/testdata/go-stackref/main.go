// Stack outputs, plain and secret, that the edit reads back through a
// StackReference to this same stack: the first up makes no reference
// (the stack has no outputs yet).
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
		ctx.Export("greeting", pulumi.String("hello"))
		ctx.Export("secretWord", pulumi.ToSecret(pulumi.String("xyzzy")))
		ctx.Export("n", n.Result)
		return nil
	})
}
