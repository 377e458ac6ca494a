// Package plinth is a small hand-written Go SDK for plinth's built-in
// provider, for the test programs: one type per resource type, each a
// custom resource with the type token and properties of
// docs/providers/plinth.md.
package plinth

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// Pet is a random pet name, such as "witty-otter".
type Pet struct {
	pulumi.CustomResourceState
	Name   pulumi.StringOutput `pulumi:"name"`
	Length pulumi.IntOutput    `pulumi:"length"`
}

// PetArgs are a Pet's inputs.
type PetArgs struct {
	Length pulumi.IntInput
}

// NewPet registers a Pet.
func NewPet(ctx *pulumi.Context, name string, args PetArgs, opts ...pulumi.ResourceOption) (*Pet, error) {
	var r Pet
	in := pulumi.Map{}
	if args.Length != nil {
		in["length"] = args.Length
	}
	if err := ctx.RegisterResource("plinth:random:Pet", name, in, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// File is a local file.
type File struct {
	pulumi.CustomResourceState
	Path         pulumi.StringOutput `pulumi:"path"`
	AbsolutePath pulumi.StringOutput `pulumi:"absolutePath"`
	Sha256       pulumi.StringOutput `pulumi:"sha256"`
	Size         pulumi.IntOutput    `pulumi:"size"`
}

// FileArgs are a File's inputs.
type FileArgs struct {
	Path        pulumi.StringInput
	Content     pulumi.StringInput
	Permissions pulumi.StringInput
}

// NewFile registers a File.
func NewFile(ctx *pulumi.Context, name string, args FileArgs, opts ...pulumi.ResourceOption) (*File, error) {
	var r File
	in := pulumi.Map{"path": args.Path}
	if args.Content != nil {
		in["content"] = args.Content
	}
	if args.Permissions != nil {
		in["permissions"] = args.Permissions
	}
	if err := ctx.RegisterResource("plinth:fs:File", name, in, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}
