// The edit: the integer is read back by its URN (getResource), its
// result written to a new file; the shipped file is changed (edit/shipped.txt),
// which the read sees and the copy follows (an update).
//
// Reading resources: a file the program ships, got by its ID
// (ReadResource: plinth:fs:File's ID is its path), and a seeded integer
// the program manages. The edit reads the integer back by its URN.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/internals"
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
		// Pulumi's getResource knows the resources registered so far in
		// this run, so the read waits for seeded's registration.
		urn, err := internals.UnsafeAwaitOutput(ctx.Context(), seeded.URN())
		if err != nil {
			return err
		}
		var again Integer
		if err := ctx.RegisterResource("plinth:random:Integer", "again", nil, &again, pulumi.URN_(string(urn.Value.(pulumi.URN)))); err != nil {
			return err
		}
		if _, err := newFile(ctx, "again-file", pulumi.Map{
			"path": pulumi.String("out/again.txt"), "content": pulumi.Sprintf("again %d\n", again.Result),
		}); err != nil {
			return err
		}
		ctx.Export("again", again.Result)
		ctx.Export("againUrn", again.URN())
		ctx.Export("shippedSha256", shipped.Sha256)
		ctx.Export("shippedSize", shipped.Size)
		ctx.Export("seeded", seeded.Result)
		ctx.Export("copy", copied.Sha256)
		return nil
	})
}
