// A Pulumi program in Go: random pets, files written from them, a
// component resource of the program's own, config (plain and secret),
// an apply, dependsOn, and stack outputs.
package main

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"plinth.test/pulumigo/plinth"
)

// Note is a pet name and a file that greets it, under one component.
type Note struct {
	pulumi.ResourceState
	Pet  *plinth.Pet
	File *plinth.File
}

func newNote(ctx *pulumi.Context, name, greeting, dir string) (*Note, error) {
	n := &Note{}
	if err := ctx.RegisterComponentResource("gotest:index:Note", name, n); err != nil {
		return nil, err
	}
	pet, err := plinth.NewPet(ctx, name+"-pet", plinth.PetArgs{Length: pulumi.Int(3)}, pulumi.Parent(n))
	if err != nil {
		return nil, err
	}
	file, err := plinth.NewFile(ctx, name+"-file", plinth.FileArgs{
		Path:    pulumi.String(dir + "/" + name + ".txt"),
		Content: pulumi.Sprintf("%s, %s!\n", greeting, pet.Name),
	}, pulumi.Parent(n))
	if err != nil {
		return nil, err
	}
	n.Pet, n.File = pet, file
	err = ctx.RegisterResourceOutputs(n, pulumi.Map{"pet": pet.Name, "path": file.AbsolutePath})
	return n, err
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		greeting := cfg.Get("greeting")
		if greeting == "" {
			greeting = "hello"
		}
		token := cfg.RequireSecret("token")

		pet, err := plinth.NewPet(ctx, "pet", plinth.PetArgs{Length: pulumi.Int(2)})
		if err != nil {
			return err
		}
		note, err := newNote(ctx, "note", greeting, "out")
		if err != nil {
			return err
		}
		// The secret reaches a file; plinth records its content encrypted.
		if _, err := plinth.NewFile(ctx, "secret", plinth.FileArgs{
			Path:        pulumi.String("out/secret.txt"),
			Content:     pulumi.Sprintf("token=%s\n", token),
			Permissions: pulumi.String("0600"),
		}); err != nil {
			return err
		}
		// An apply derives a value: the pet name, shouted.
		shout := pet.Name.ApplyT(func(n string) string { return strings.ToUpper(n) }).(pulumi.StringOutput)
		shouted, err := plinth.NewFile(ctx, "shouted", plinth.FileArgs{Path: pulumi.String("out/shouted.txt"), Content: shout},
			pulumi.DependsOn([]pulumi.Resource{note}))
		if err != nil {
			return err
		}
		ctx.Export("petName", pet.Name)
		ctx.Export("notePath", note.File.AbsolutePath)
		ctx.Export("shoutedSize", shouted.Size)
		ctx.Export("tokenOut", token)
		ctx.Export("summary", pulumi.String(fmt.Sprintf("greeting %s", greeting)))
		// Structured config reaches the program as JSON text.
		ctx.Export("settings", pulumi.String(cfg.Get("settings")))
		return nil
	})
}
