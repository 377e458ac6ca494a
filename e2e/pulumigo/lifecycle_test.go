package pulumigo_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestGoLifecycle runs testdata/lifecycle through plinth: a first
// preview and up, a preview that finds nothing, an edit of config that
// updates, an edit of the program that replaces, and destroy.
func TestGoLifecycle(t *testing.T) {
	t.Parallel()
	p := newGoProject(t, "lifecycle")
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	appendFile(t, filepath.Join(p.Dir, "Pulumi.dev.yaml"), "  golife:settings:\n    n: 3\n    b: [{c: true}, {c: false}]\n")
	p.PulumiPreview(
		"+  plinth:random:Pet pet create",
		"+  gotest:index:Note note create",
		"+  plinth:random:Pet note-pet create",
		"+  plinth:fs:File note-file create",
		"+  plinth:fs:File secret create",
		"+  plinth:fs:File shouted create",
		"+  pulumi:pulumi:Stack golife-dev create", // opening the preview, as pulumi's does
		"+  pulumi:pulumi:Stack golife-dev create",
	)
	if r := p.Run("up", "--yes", "--skip-preview"); !strings.Contains(r.Stdout, "7 created") {
		t.Errorf("the first up does not say 7 created:\n%s", r.Stdout)
	}

	pet := p.output("petName")
	if strings.Count(pet, "-") != 1 {
		t.Errorf("petName = %q, want a two-word pet name", pet)
	}
	if got, want := p.Read("out/shouted.txt"), strings.ToUpper(pet); got != want {
		t.Errorf("out/shouted.txt = %q, want %q (the apply-derived value)", got, want)
	}
	if got := p.Read("out/secret.txt"); got != "token=s3cr3t\n" {
		t.Errorf("out/secret.txt = %q, want the secret config value", got)
	}
	if got := p.Read("out/note.txt"); !strings.HasPrefix(got, "hello, ") {
		t.Errorf("out/note.txt = %q, want the default greeting", got)
	}
	if got, want := p.output("notePath"), filepath.Join(p.Dir, "out", "note.txt"); got != want {
		t.Errorf("notePath = %q, want %q", got, want)
	}
	if got, want := p.Run("stack", "output", "settings").Stdout, `{"b":[{"c":true},{"c":false}],"n":3}`; !strings.Contains(got, want) {
		t.Errorf("settings (structured config) = %s, want it to hold %s", got, want)
	}
	if out := p.Run("stack", "output").Stdout; !strings.Contains(out, "tokenOut") || strings.Contains(out, "s3cr3t") {
		t.Errorf("stack output shows the secret output in plain text, or not at all:\n%s", out)
	}
	p.checkGraph()
	p.PulumiPreview()

	// An edit of plain config: the greeting reaches the component's file.
	p.Run("config", "set", "greeting", "hi")
	p.PulumiPreview("~  plinth:fs:File note-file update [diff: ~content]")
	if r := p.Run("up", "--yes", "--skip-preview"); !strings.Contains(r.Stdout, "1 updated") {
		t.Errorf("up after the greeting changed does not say 1 updated:\n%s", r.Stdout)
	}
	if got := p.Read("out/note.txt"); !strings.HasPrefix(got, "hi, ") {
		t.Errorf("out/note.txt after the update = %q", got)
	}

	// An edit of the program that replaces the pet; the derived file follows.
	clitest.Edit(t, p.Dir, "main.go", `plinth.NewPet(ctx, "pet", plinth.PetArgs{Length: pulumi.Int(2)})`, `plinth.NewPet(ctx, "pet", plinth.PetArgs{Length: pulumi.Int(3)})`)
	p.PulumiPreview(
		"++ plinth:random:Pet pet create replacement [diff: ~length]",
		"+- plinth:random:Pet pet replace [diff: ~length]",
		"-- plinth:random:Pet pet delete original [diff: ~length]",
		"~  plinth:fs:File shouted update [diff: ~content]",
	)
	r := p.Run("up", "--yes", "--skip-preview")
	for _, want := range []string{"1 replaced", "1 updated"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("up after the edit does not say %s:\n%s", want, r.Stdout)
		}
	}
	if newPet := p.output("petName"); newPet == pet || strings.Count(newPet, "-") != 2 {
		t.Errorf("petName after the replacement = %q (was %q), want a new three-word name", newPet, pet)
	}
	p.PulumiPreview()

	// destroy does not run the program, so it does not build it either.
	writeFile(t, filepath.Join(p.Dir, "broken.go"), "package main\n\nvar broken int = \"text\"\n")
	p.Run("destroy", "--yes")
	if urns := p.urns(); len(urns) != 0 {
		t.Errorf("after destroy the state still records %v", urns)
	}
	for _, f := range []string{"out/note.txt", "out/shouted.txt", "out/secret.txt"} {
		if _, err := os.Stat(filepath.Join(p.Dir, f)); !os.IsNotExist(err) {
			t.Errorf("after destroy, %s still exists (err %v)", f, err)
		}
	}
}

// checkGraph checks the component's children and the dependencies the
// program declared, as the state records them (by resource name). The
// Go SDK sends a dependency on a component as one on its children.
func (p *goProject) checkGraph() {
	p.T.Helper()
	type node struct {
		Parent string
		Deps   []string
	}
	var state struct {
		Resources []struct {
			URN          string   `json:"urn"`
			Custom       bool     `json:"custom"`
			Parent       string   `json:"parent"`
			Dependencies []string `json:"dependencies"`
		} `json:"resources"`
	}
	out := p.Run("state", "export").Stdout
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		p.T.Fatalf("state export: %v\n%s", err, out)
	}
	got := map[string]node{}
	for _, r := range state.Resources {
		if strings.Contains(r.URN, "::pulumi:providers:") {
			continue
		}
		n := node{Parent: name(r.Parent)}
		for _, d := range r.Dependencies {
			n.Deps = append(n.Deps, name(d))
		}
		sort.Strings(n.Deps)
		got[name(r.URN)] = n
	}
	want := map[string]node{
		"pet":       {},
		"note":      {},
		"note-pet":  {Parent: "note"},
		"note-file": {Parent: "note", Deps: []string{"note-pet"}},
		"secret":    {},
		"shouted":   {Deps: []string{"note-file", "note-pet", "pet"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		p.T.Errorf("parents and dependencies in the state (-want +got):\n%s", diff)
	}
}

// name is a URN's resource name, "" for "".
func name(urn string) string {
	if urn == "" {
		return ""
	}
	return urn[strings.LastIndex(urn, "::")+2:]
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
