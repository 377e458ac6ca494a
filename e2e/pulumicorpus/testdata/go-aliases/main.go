// Two components with children: box, and mover beside an empty holder.
// The edit renames box and moves mover under holder, with aliases; the
// children keep their identity (nothing is replaced).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Box is a seeded integer and a file written from it.
type Box struct {
	pulumi.ResourceState
	Number pulumi.IntOutput
}

// newBox registers a Box; its children are named from prefix, which stays
// the same when the box is renamed.
func newBox(ctx *pulumi.Context, name, prefix string, opts ...pulumi.ResourceOption) (*Box, error) {
	b := &Box{}
	if err := ctx.RegisterComponentResource("corpus:index:Box", name, b, opts...); err != nil {
		return nil, err
	}
	num, err := newInteger(ctx, prefix+"-n", pulumi.Map{
		"min": pulumi.Int(1), "max": pulumi.Int(100), "seed": pulumi.String(prefix),
	}, pulumi.Parent(b))
	if err != nil {
		return nil, err
	}
	if _, err := newFile(ctx, prefix+"-file", pulumi.Map{
		"path":    pulumi.String("out/" + prefix + ".txt"),
		"content": pulumi.Sprintf("%s holds %d\n", prefix, num.Result),
	}, pulumi.Parent(b)); err != nil {
		return nil, err
	}
	b.Number = num.Result
	return b, ctx.RegisterResourceOutputs(b, pulumi.Map{"number": num.Result})
}

// Holder is an empty component that may hold boxes.
type Holder struct {
	pulumi.ResourceState
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		holder := &Holder{}
		if err := ctx.RegisterComponentResource("corpus:index:Holder", "holder", holder); err != nil {
			return err
		}
		box, err := newBox(ctx, "box", "box")
		if err != nil {
			return err
		}
		mover, err := newBox(ctx, "mover", "mover")
		if err != nil {
			return err
		}
		ctx.Export("box", box.Number)
		ctx.Export("mover", mover.Number)
		return nil
	})
}
