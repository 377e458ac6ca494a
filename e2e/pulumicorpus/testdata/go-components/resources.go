package main

// The resources of plinth's built-in provider (served to Pulumi as
// pulumi-resource-plinth) that this program uses, written by hand as a
// generated SDK would declare them; see docs/providers/plinth.md.

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// Pet is a random pet name (plinth:random:Pet).
type Pet struct {
	pulumi.CustomResourceState
	Name pulumi.StringOutput `pulumi:"name"`
}

// Integer is a random integer, the same for the same seed
// (plinth:random:Integer).
type Integer struct {
	pulumi.CustomResourceState
	Result pulumi.IntOutput `pulumi:"result"`
}

// File is a local file (plinth:fs:File).
type File struct {
	pulumi.CustomResourceState
	Path    pulumi.StringOutput `pulumi:"path"`
	Content pulumi.StringOutput `pulumi:"content"`
	Sha256  pulumi.StringOutput `pulumi:"sha256"`
	Size    pulumi.IntOutput    `pulumi:"size"`
}

// Sleep waits on creation and deletion (plinth:time:Sleep).
type Sleep struct {
	pulumi.CustomResourceState
	CreateDuration pulumi.StringOutput `pulumi:"createDuration"`
}

func newPet(ctx *pulumi.Context, name string, in pulumi.Map, opts ...pulumi.ResourceOption) (*Pet, error) {
	var r Pet
	return &r, ctx.RegisterResource("plinth:random:Pet", name, in, &r, opts...)
}

func newInteger(ctx *pulumi.Context, name string, in pulumi.Map, opts ...pulumi.ResourceOption) (*Integer, error) {
	var r Integer
	return &r, ctx.RegisterResource("plinth:random:Integer", name, in, &r, opts...)
}

func newFile(ctx *pulumi.Context, name string, in pulumi.Map, opts ...pulumi.ResourceOption) (*File, error) {
	var r File
	return &r, ctx.RegisterResource("plinth:fs:File", name, in, &r, opts...)
}

func newSleep(ctx *pulumi.Context, name string, in pulumi.Map, opts ...pulumi.ResourceOption) (*Sleep, error) {
	var r Sleep
	return &r, ctx.RegisterResource("plinth:time:Sleep", name, in, &r, opts...)
}
