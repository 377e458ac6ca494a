package engine_test

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
)

func aliases(as ...engine.Alias) func(*engine.Registration) {
	return func(r *engine.Registration) { r.Aliases = as }
}

// TestAliasesTakeOverWithoutReplacing: renaming a resource, moving it
// under a parent, or naming its old URN takes over its state entry; no
// provider call creates or deletes anything, and dependents follow.
func TestAliasesTakeOverWithoutReplacing(t *testing.T) {
	cases := map[string]struct {
		before, after prog
		renamed       string // the name the resource has after
	}{
		"renamed": {
			before:  prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "c", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}},
			after:   prog{{name: "b", inputs: map[string]any{"x": 1}, opt: aliases(engine.Alias{Name: "a"})}, {name: "c", deps: []string{"b"}, from: map[string]string{"y": "b.out"}}},
			renamed: "b",
		},
		"moved under a parent": {
			before:  prog{{name: "comp", typ: "my:index:Group", component: true}, {name: "a"}},
			after:   prog{{name: "comp", typ: "my:index:Group", component: true}, {name: "a", parent: "comp", opt: aliases(engine.Alias{NoParent: true})}},
			renamed: "a",
		},
		"full URN": {
			before:  prog{{name: "a"}},
			after:   prog{{name: "z", opt: aliases(engine.Alias{URN: "urn:pulumi:dev::proj::pkg:index:Thing::a"})}},
			renamed: "z",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(tc.before)
			oldID := h.get("a").ID
			before := h.world.history()
			if _, err := h.preview(tc.after); err != nil {
				t.Fatal(err)
			}
			diffStrings(t, "preview steps", nil, h.ops())
			res := h.mustUp(tc.after)
			diffStrings(t, "update steps", nil, h.ops())
			diffStrings(t, "world history: nothing made or deleted", before, h.world.history())
			if r := h.get(tc.renamed); r == nil || r.ID != oldID {
				t.Fatalf("state %v: want %s holding a's ID %s", h.names(), tc.renamed, oldID)
			}
			if res.Counts[engine.OpCreate]+res.Counts[engine.OpDelete]+res.Counts[engine.OpReplace] != 0 {
				t.Errorf("counts %v: want no create, delete or replace", res.Counts)
			}
			if res := h.mustUp(tc.after); res.HasChanges() {
				t.Errorf("the next up changes %v", res.Counts)
			}
		})
	}
}

// TestAliasOfARegisteredResourceIsAnError: an alias naming a resource the
// program still registers is ambiguous.
func TestAliasOfARegisteredResourceIsAnError(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a"}})
	_, err := h.up(prog{{name: "a"}, {name: "b", deps: []string{"a"}, opt: aliases(engine.Alias{Name: "a"})}})
	if err == nil {
		t.Fatal("want an error naming the alias")
	}
	diffStrings(t, "state", []string{"a"}, h.names())
}
