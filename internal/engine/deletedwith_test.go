package engine_test

import (
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
)

// TestDeletedWith: a resource deleted with another (deletedWith) is not
// deleted through its provider when that other one is deleted in the same
// operation, whether by a destroy, by leaving the program or by a
// delete-first replacement; it is just dropped from the state (and
// created again where the program still has it). On its own it is
// deleted as usual.
func TestDeletedWith(t *testing.T) {
	withDB := func(r *engine.Registration) { r.DeletedWith = "urn:pulumi:dev::proj::pkg:index:Thing::db" }
	db := func(x int) spec {
		return spec{name: "db", inputs: map[string]any{"x": x}, opt: func(r *engine.Registration) {
			r.ReplaceOnChanges, r.DeleteBeforeReplace = []string{"x"}, true
		}}
	}
	table := spec{name: "table", deps: []string{"db"}, opt: withDB}
	tests := map[string]struct {
		next      prog // nil: destroy
		wantState []string
		wantWorld []string // the world's history after the first update
	}{
		"destroy":          {nil, nil, []string{"delete db"}},
		"both removed":     {prog{}, nil, []string{"delete db"}},
		"alone":            {prog{db(1)}, []string{"db"}, []string{"delete table"}},
		"db replaced":      {prog{db(2), table}, []string{"db", "table"}, []string{"delete db", "create db", "create table"}},
		"removed with old": {prog{db(2)}, []string{"db"}, []string{"delete db", "create db"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(prog{db(1), table})
			if got := h.get("table").DeletedWith; got != "urn:pulumi:dev::proj::pkg:index:Thing::db" {
				t.Fatalf("recorded deletedWith = %q", got)
			}
			before := len(h.world.history())
			var err error
			if tc.next == nil {
				_, err = h.destroy()
			} else {
				_, err = h.up(tc.next)
			}
			if err != nil {
				t.Fatal(err)
			}
			diffStrings(t, "state", tc.wantState, h.names())
			diffStrings(t, "provider calls", tc.wantWorld, h.world.history()[before:])
			if name == "both removed" { // shown as a delete, though no provider call is made
				diffStrings(t, "ops", []string{"delete table"}, filter(h.ops(), "table"))
			}
		})
	}
}

func filter(ss []string, sub string) []string {
	var out []string
	for _, s := range ss {
		if strings.Contains(s, sub) {
			out = append(out, s)
		}
	}
	return out
}

// TestDeletedWithRetained: a resource deleted with one that has
// retainOnDelete is not deleted through its provider either when both
// leave the stack, as by pulumi, which skips it whenever the other has a
// delete step, retained or not: a retained database keeps its tables.
// Before, plinth called the table's Delete, because the database itself
// was not deleted in the world.
func TestDeletedWithRetained(t *testing.T) {
	db := spec{name: "db", opt: func(r *engine.Registration) { r.RetainOnDelete = true }}
	table := spec{name: "table", deps: []string{"db"}, opt: func(r *engine.Registration) {
		r.DeletedWith = "urn:pulumi:dev::proj::pkg:index:Thing::db"
	}}
	tests := map[string]prog{"destroy": nil, "both removed": {}}
	for name, next := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(prog{db, table})
			before := len(h.world.history())
			var err error
			if next == nil {
				_, err = h.destroy()
			} else {
				_, err = h.up(next)
			}
			if err != nil {
				t.Fatal(err)
			}
			diffStrings(t, "state", nil, h.names())
			diffStrings(t, "provider calls", nil, h.world.history()[before:])
		})
	}
}
