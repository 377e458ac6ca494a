// Reading resources: a file the program ships, got by its ID
// (ReadResource: plinth:fs:File's ID is its path), and a seeded integer
// the program manages. The edit reads the integer back by its URN.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		var shipped File
		if err := ctx.ReadResource("plinth:fs:File", "shipped", pulumi.ID("shipped.txt"), nil, &shipped); err != nil {
			return err
		}
		seeded, err := newInteger(ctx, "seeded", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(1000), "seed": pulumi.String("read"),
		})
		if err != nil {
			return err
		}
		copied, err := newFile(ctx, "copy", pulumi.Map{
			"path":    pulumi.String("out/copy.txt"),
			"content": pulumi.Sprintf("shipped %s, %d bytes; seeded %d\n", shipped.Sha256, shipped.Size, seeded.Result),
		})
		if err != nil {
			return err
		}
		ctx.Export("shippedSha256", shipped.Sha256)
		ctx.Export("shippedSize", shipped.Size)
		ctx.Export("seeded", seeded.Result)
		ctx.Export("copy", copied.Sha256)
		return nil
	})
}
