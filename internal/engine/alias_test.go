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

// TestChildrenInheritTheirParentsAliases: a component renamed, re-typed or
// moved with an alias keeps its children and grandchildren, none of which
// has an alias of its own; a child named after its parent ("app-a" under
// "app") follows the parent's new name; a child's own alias combines with
// its parent's. Nothing is created, deleted or replaced, and the state
// holds the new URNs.
func TestChildrenInheritTheirParentsAliases(t *testing.T) {
	group := func(name string, opts ...func(*engine.Registration)) spec {
		s := spec{name: name, typ: "my:index:Group", component: true}
		if len(opts) > 0 {
			s.opt = opts[0]
		}
		return s
	}
	cases := map[string]struct {
		before, after prog
		want          []string // URNs in state after, sorted
	}{
		"component renamed, children named after it": {
			before: prog{group("app"), {name: "app-a", parent: "app"}, {name: "b", parent: "app"}},
			after:  prog{group("web", aliases(engine.Alias{Name: "app"})), {name: "web-a", parent: "web"}, {name: "b", parent: "web"}},
			want: []string{
				"urn:pulumi:dev::proj::my:index:Group$pkg:index:Thing::b",
				"urn:pulumi:dev::proj::my:index:Group$pkg:index:Thing::web-a",
				"urn:pulumi:dev::proj::my:index:Group::web",
			},
		},
		"component re-typed, with a grandchild": {
			before: prog{group("app"), {name: "inner", typ: "my:index:Inner", component: true, parent: "app"}, {name: "a", parent: "inner"}},
			after:  prog{{name: "app", typ: "my:index:Team", component: true, opt: aliases(engine.Alias{Type: "my:index:Group"})}, {name: "inner", typ: "my:index:Inner", component: true, parent: "app"}, {name: "a", parent: "inner"}},
			want: []string{
				"urn:pulumi:dev::proj::my:index:Team$my:index:Inner$pkg:index:Thing::a",
				"urn:pulumi:dev::proj::my:index:Team$my:index:Inner::inner",
				"urn:pulumi:dev::proj::my:index:Team::app",
			},
		},
		"component moved under another, by its old URN": {
			before: prog{group("outer"), group("app"), {name: "a", parent: "app"}},
			after:  prog{group("outer"), {name: "app", typ: "my:index:Group", component: true, parent: "outer", opt: aliases(engine.Alias{URN: "urn:pulumi:dev::proj::my:index:Group::app"})}, {name: "a", parent: "app"}},
			want: []string{
				"urn:pulumi:dev::proj::my:index:Group$my:index:Group$pkg:index:Thing::a",
				"urn:pulumi:dev::proj::my:index:Group$my:index:Group::app",
				"urn:pulumi:dev::proj::my:index:Group::outer",
			},
		},
		"child renamed too, under a re-typed parent": {
			before: prog{group("app"), {name: "old", parent: "app"}},
			after:  prog{{name: "app", typ: "my:index:Team", component: true, opt: aliases(engine.Alias{Type: "my:index:Group"})}, {name: "new", parent: "app", opt: aliases(engine.Alias{Name: "old"})}},
			want: []string{
				"urn:pulumi:dev::proj::my:index:Team$pkg:index:Thing::new",
				"urn:pulumi:dev::proj::my:index:Team::app",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(tc.before)
			before := h.world.history()
			if _, err := h.preview(tc.after); err != nil {
				t.Fatal(err)
			}
			diffStrings(t, "preview steps", nil, h.ops())
			res := h.mustUp(tc.after)
			diffStrings(t, "update steps", nil, h.ops())
			diffStrings(t, "world history: nothing made or deleted", before, h.world.history())
			diffStrings(t, "state URNs", tc.want, h.urns())
			if res.Counts[engine.OpCreate]+res.Counts[engine.OpDelete]+res.Counts[engine.OpReplace] != 0 {
				t.Errorf("counts %v: want no create, delete or replace", res.Counts)
			}
			if res := h.mustUp(tc.after); res.HasChanges() {
				t.Errorf("the next up changes %v", res.Counts)
			}
		})
	}
}
