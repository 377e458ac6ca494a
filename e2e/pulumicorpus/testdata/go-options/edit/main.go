// The edit: guarded unprotected (so that destroy may delete it), anchor
// and rider removed (two deletes: rider goes with the anchor), ignored's
// content changed (ignored: no change), replaced's content changed (a
// replace), plain's (an update). kept (retainOnDelete) stays until the
// destroy, which leaves its file on disk: plinth counts a retained
// resource's removal as "discarded" where pulumi counts it "deleted",
// and the corpus compares the counts of up and edit only.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		guarded, err := newInteger(ctx, "guarded", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(100), "seed": pulumi.String("guarded"),
		}, pulumi.Protect(false))
		if err != nil {
			return err
		}
		if _, err := newFile(ctx, "kept", pulumi.Map{
			"path": pulumi.String("out/kept.txt"), "content": pulumi.String("kept when deleted\n"),
		}, pulumi.RetainOnDelete(true)); err != nil {
			return err
		}
		ignored, err := newFile(ctx, "ignored", pulumi.Map{
			"path": pulumi.String("out/ignored.txt"), "content": pulumi.String("other words\n"),
		}, pulumi.IgnoreChanges([]string{"content"}))
		if err != nil {
			return err
		}
		replaced, err := newFile(ctx, "replaced", pulumi.Map{
			"path": pulumi.String("out/replaced.txt"), "content": pulumi.String("version 2\n"),
		}, pulumi.ReplaceOnChanges([]string{"content"}))
		if err != nil {
			return err
		}
		plain, err := newFile(ctx, "plain", pulumi.Map{
			"path": pulumi.String("out/plain.txt"), "content": pulumi.String("version 2\n"),
		})
		if err != nil {
			return err
		}
		if _, err := newSleep(ctx, "timed", pulumi.Map{"createDuration": pulumi.String("10ms")},
			pulumi.Timeouts(&pulumi.CustomTimeouts{Create: "1m", Delete: "2m"})); err != nil {
			return err
		}
		hidden, err := newInteger(ctx, "hidden", pulumi.Map{
			"min": pulumi.Int(1), "max": pulumi.Int(100), "seed": pulumi.String("hidden"),
		}, pulumi.AdditionalSecretOutputs([]string{"result"}))
		if err != nil {
			return err
		}
		ctx.Export("guarded", guarded.Result)
		ctx.Export("hidden", hidden.Result)
		ctx.Export("ignored", ignored.Sha256)
		ctx.Export("replaced", replaced.Sha256)
		ctx.Export("plain", plain.Sha256)
		return nil
	})
}
