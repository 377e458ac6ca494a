package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAdditionalSecretOutputsAreSealed: the outputs additionalSecretOutputs
// names are secret in the record, so the stack file and the journal hold
// them sealed, not in plain text; the program gets them back secret; a
// refresh finds no drift in them; reads are covered as well as creates.
func TestAdditionalSecretOutputsAreSealed(t *testing.T) {
	h, _ := readHarness(t)
	h.world.things["ext-0"] = resource.Object{"token": resource.NewString("s3cr3t-read")}
	secret := func(r *engine.Registration) { r.AdditionalSecretOutputs = []string{"pw", "out", "token"} }
	var got engine.Registered
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		var err error
		got, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true,
			Inputs: resource.Object{"pw": resource.NewString("hunter2")}, AdditionalSecretOutputs: []string{"pw", "out"}})
		if err != nil {
			return err
		}
		reg := engine.Registration{Type: "pkg:index:Thing", Name: "ext", Custom: true, ReadID: "ext-0", Inputs: resource.Object{}}
		secret(&reg)
		_, err = engine.RegisterAndWait(ctx, mon, reg)
		return err
	})
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatal(err)
	}
	h.snap = j.Snapshot()
	if !got.Outputs["pw"].IsSecret() || !got.Outputs["out"].IsSecret() {
		t.Errorf("the program got %v, want pw and out secret", got.Outputs)
	}
	c, err := secrets.NewCrypter(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	file, err := state.EncodeSnapshot(h.snap, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	stored := []string{string(file)}
	for _, e := range j.Entries() {
		data, err := state.EncodeEntry(e, c)
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, string(data))
	}
	for _, plain := range []string{"hunter2", "out-a-1", "s3cr3t-read"} {
		for _, s := range stored {
			if strings.Contains(s, plain) {
				t.Errorf("the stored state holds %q in plain text: %s", plain, s)
			}
		}
	}
	res, err := h.refresh()
	if err != nil {
		t.Fatal(err)
	}
	if res.HasChanges() {
		t.Errorf("a refresh found drift in sealed outputs: %v", res.Counts)
	}
	j = state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatal(err)
	}
	if n := len(j.Entries()); n != 0 {
		t.Errorf("a rerun wrote %d journal entries, e.g. %s %s of %s", n, j.Entries()[0].Kind, j.Entries()[0].Op, j.Entries()[0].New.URN)
	}
}
