// The edit: note b revised (an update), c removed and d added (three
// deletes, three creates), the loose note's file moved (a replace).
//
// Components of the program's own: a Shelf holding Notes, each Note a
// seeded integer and a file written from it; outputs registered on each
// component and exported from the stack.
package main

import (
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Note is a numbered file under one component.
type Note struct {
	pulumi.ResourceState
	Number pulumi.IntOutput
	Sha256 pulumi.StringOutput
}

func newNote(ctx *pulumi.Context, name, text string, opts ...pulumi.ResourceOption) (*Note, error) {
	n := &Note{}
	if err := ctx.RegisterComponentResource("corpus:index:Note", name, n, opts...); err != nil {
		return nil, err
	}
	num, err := newInteger(ctx, name+"-n", pulumi.Map{
		"min": pulumi.Int(1), "max": pulumi.Int(1000), "seed": pulumi.String(name),
	}, pulumi.Parent(n))
	if err != nil {
		return nil, err
	}
	file, err := newFile(ctx, name+"-file", pulumi.Map{
		"path":    pulumi.String("out/" + name + suffix(name) + ".txt"),
		"content": pulumi.Sprintf("%s #%d\n", text, num.Result),
	}, pulumi.Parent(n))
	if err != nil {
		return nil, err
	}
	n.Number, n.Sha256 = num.Result, file.Sha256
	return n, ctx.RegisterResourceOutputs(n, pulumi.Map{"number": num.Result, "sha256": file.Sha256})
}

// Shelf is a component holding notes.
type Shelf struct {
	pulumi.ResourceState
	Notes map[string]*Note
}

func newShelf(ctx *pulumi.Context, name string, notes map[string]string) (*Shelf, error) {
	s := &Shelf{Notes: map[string]*Note{}}
	if err := ctx.RegisterComponentResource("corpus:index:Shelf", name, s); err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(notes) {
		n, err := newNote(ctx, name+"-"+k, notes[k], pulumi.Parent(s))
		if err != nil {
			return nil, err
		}
		s.Notes[k] = n
	}
	return s, ctx.RegisterResourceOutputs(s, pulumi.Map{"count": pulumi.Int(len(notes))})
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		shelf, err := newShelf(ctx, "shelf", map[string]string{
			"a": "first note",
			"b": "second note, revised",
			"d": "fourth note",
		})
		if err != nil {
			return err
		}
		loose, err := newNote(ctx, "loose", "a note on no shelf")
		if err != nil {
			return err
		}
		ctx.Export("a", shelf.Notes["a"].Number)
		ctx.Export("b", shelf.Notes["b"].Sha256)
		ctx.Export("loose", loose.Number)
		ctx.Export("notes", pulumi.Int(len(shelf.Notes)))
		return nil
	})
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// suffix moves the loose note's file.
func suffix(name string) string {
	if name == "loose" {
		return "-moved"
	}
	return ""
}
