package yaml

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provisioner"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestProvisionersOption runs a YAML program whose resource has a
// local-exec provisioner referring to another resource, and a destroy-time
// one recorded in state.
func TestProvisionersOption(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	p := mustParse(t, `
name: prov
resources:
  pet:
    type: fake:index:Pet
  note:
    type: fake:index:File
    options:
      provisioners:
        - type: local-exec
          command: echo made ${pet.id} > `+out+`
        - type: local-exec
          command: echo bye
          when: destroy
          onFailure: continue
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := &state.Snapshot{}
	j := state.NewMemoryJournal(snap, state.VerifyEach(t))
	_, err = engine.Update(context.Background(), ev, snap, engine.Options{Stack: "dev", Project: p.Name(),
		Providers: &fakeSource{configs: map[string]resource.Object{}}, Journal: j, Provisioners: provisioner.Source{}})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	snap = j.Snapshot()
	b, err := os.ReadFile(out)
	if want := "made " + idOf(t, snap, "pet"); err != nil || strings.TrimSpace(string(b)) != want {
		t.Errorf("local-exec wrote %q (%v), want %q", b, err, want)
	}
	for _, r := range snap.Resources {
		if r.URN.Name() == "note" && (len(r.DestroyProvisioners) != 1 || !r.DestroyProvisioners[0].Continue) {
			t.Errorf("note's destroy provisioners in state: %+v", r.DestroyProvisioners)
		}
	}
}

func TestProvisionersOptionErrors(t *testing.T) {
	tests := map[string]struct{ yaml, want string }{
		"no type":    {"- command: x", "Missing provisioner type"},
		"bad when":   {"- { type: local-exec, command: x, when: later }", "when must be"},
		"bad choice": {"- { type: local-exec, command: x, onFailure: ignore }", "onFailure must be"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			src := "name: p\nresources:\n  a:\n    type: fake:index:Pet\n    options:\n      provisioners:\n        " + tt.yaml + "\n"
			_, err := Parse("plinth.yaml", t.TempDir(), []byte(src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
