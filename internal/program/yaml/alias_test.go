package yaml

import (
	"context"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAliasesRenameWithoutReplacing: renaming a resource key with
// `aliases: [oldName]`, then again with a full old URN, keeps the
// recorded resource: same ID, nothing created, replaced or deleted.
func TestAliasesRenameWithoutReplacing(t *testing.T) {
	programs := []string{`
name: al
resources:
  pet:
    type: fake:index:Pet
    properties: { length: 2 }
  note:
    type: fake:index:File
    properties: { content: "${pet.id}" }
`, `
name: al
resources:
  animal:
    type: fake:index:Pet
    properties: { length: 2 }
    options: { aliases: [pet] }
  note:
    type: fake:index:File
    properties: { content: "${animal.id}" }
`, `
name: al
resources:
  beast:
    type: fake:index:Pet
    properties: { length: 2 }
    options:
      aliases: ["urn:pulumi:dev::al::fake:index:Pet::animal", { name: nothing-here }]
  note:
    type: fake:index:File
    properties: { content: "${beast.id}" }
`}
	src := &fakeSource{configs: map[string]resource.Object{}}
	snap := &state.Snapshot{}
	var petID string
	for i, text := range programs {
		p := mustParse(t, text)
		ev, err := p.Program(nil, program.Options{})
		if err != nil {
			t.Fatal(err)
		}
		j := state.NewMemoryJournal(snap, state.VerifyEach(t))
		res, err := engine.Update(context.Background(), ev, snap, engine.Options{Stack: "dev", Project: p.Name(), Providers: src, Journal: j})
		if err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		snap = j.Snapshot()
		name := []string{"pet", "animal", "beast"}[i]
		id := idOf(t, snap, name)
		if i == 0 {
			petID = id
			continue
		}
		if id != petID {
			t.Errorf("program %d: %s has ID %s, want the old pet's %s", i, name, id, petID)
		}
		if res.HasChanges() {
			t.Errorf("program %d: renaming through an alias changed %v, want nothing", i, res.Counts)
		}
	}
}

// TestAliasErrors: an alias that is not a name, URN or alias mapping is a
// diagnostic naming the option.
func TestAliasErrors(t *testing.T) {
	for name, text := range map[string]string{
		"bad URN":       `aliases: ["urn:pulumi:x"]`,
		"unknown field": `aliases: [{ nmae: old }]`,
		"not a list":    `aliases: old`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("plinth.yaml", ".", []byte("name: x\nresources:\n  a:\n    type: fake:index:Pet\n    options: { "+text+" }\n"))
			if err == nil {
				t.Fatalf("%s parsed", text)
			}
			if !strings.Contains(err.Error(), "aliases") {
				t.Errorf("error %q does not name the aliases option", err)
			}
		})
	}
}
