package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// onlySelf marks a registration as the Terraform front end does.
func onlySelf(r *engine.Registration) { r.ReplaceOnlySelf = true }

// tfChain is chain under Terraform's semantics: b's y is a's out, c's y is
// b's out; with replaceB, b's k is a's out too, so a new a replaces b.
func tfChain(k int, replaceB bool) prog {
	p := chain(k)
	for i := range p {
		p[i].opt = onlySelf
	}
	if replaceB {
		p[1].from = map[string]string{"k": "a.out"}
	}
	return p
}

// TestReplaceOnlySelf: a delete-first replacement under ReplaceOnlySelf
// deletes and recreates the resource alone, as terraform does ("destroy
// a, create a, update b"); each dependent then takes its own diff against
// the new outputs. The harness verifies the state after every journal
// entry, so b never refers to a record that is gone.
func TestReplaceOnlySelf(t *testing.T) {
	tests := map[string]struct {
		replaceB                bool
		history, ops            []string // ops sorted
		replaces, updates, dels int
	}{
		"dependent updated": {
			history:  []string{"delete a", "create a", "update b"},
			ops:      []string{"create-replacement a", "delete-replaced a", "update b"},
			replaces: 1, updates: 1,
		},
		// terraform destroys b before a here (it planned b's replacement
		// before applying); plinth learns of it only once a is created.
		"dependent replaced too": {
			replaceB: true,
			history:  []string{"delete a", "create a", "delete b", "create b", "update c"},
			ops:      []string{"create-replacement a", "create-replacement b", "delete-replaced a", "delete-replaced b", "update c"},
			replaces: 2, updates: 1,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			replaceOnKey(h.fake, "k", true)
			h.mustUp(tfChain(1, tc.replaceB))
			before := len(h.world.history())
			res := h.mustUp(tfChain(2, tc.replaceB))
			diffStrings(t, "history", tc.history, h.world.history()[before:])
			diffStrings(t, "ops", tc.ops, h.ops())
			if res.Counts[engine.OpReplace] != tc.replaces || res.Counts[engine.OpUpdate] != tc.updates || res.Counts[engine.OpDelete] != tc.dels {
				t.Errorf("counts %v, want %d replaces, %d updates, %d deletes", res.Counts, tc.replaces, tc.updates, tc.dels)
			}
			diffStrings(t, "state", []string{"a", "b", "c"}, h.names())
			for _, n := range []string{"a", "b", "c"} {
				if r := h.get(n); r.Missing || r.Delete {
					t.Errorf("%s is left recorded as missing %v, pending delete %v", n, r.Missing, r.Delete)
				}
			}
			if res := h.mustUp(tfChain(2, tc.replaceB)); res.HasChanges() {
				t.Errorf("a second update changed something: %v", res.Counts)
			}
		})
	}
}

// TestReplaceOnlySelfPreview: the preview counts what the update does.
func TestReplaceOnlySelfPreview(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", true)
	h.mustUp(tfChain(1, false))
	res, err := h.preview(tfChain(2, false))
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts[engine.OpReplace] != 1 || res.Counts[engine.OpUpdate] != 1 || res.Counts[engine.OpDelete] != 0 {
		t.Errorf("preview counts %v, want one replace and one update", res.Counts)
	}
}

// TestReplaceOnlySelfCreateFails: when the re-create fails after the
// delete, the resource stays recorded as missing (its dependents' references
// hold) and the next update creates it.
func TestReplaceOnlySelfCreateFails(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", true)
	h.mustUp(tfChain(1, false))
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if !req.Preview && req.URN.Name() == "a" {
			return provider.CreateResponse{}, errors.New("quota exceeded")
		}
		return create(ctx, req)
	}
	if _, err := h.up(tfChain(2, false)); err == nil {
		t.Fatal("the update succeeded; want the failed create of a")
	}
	if a := h.get("a"); a == nil || !a.Missing {
		t.Fatalf("after the failed create, a is recorded as %+v; want it kept, marked missing", a)
	}
	h.fake.CreateF = create
	h.mustUp(tfChain(2, false))
	diffStrings(t, "state", []string{"a", "b", "c"}, h.names())
	diffStrings(t, "world", []string{"a-4", "b-2", "c-3"}, h.world.ids())
}
