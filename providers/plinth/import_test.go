package plinth_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Every built-in resource that can be read imports by ID, and the import
// reads back what a create with the same inputs records; a refresh keeps
// what is recorded.
func TestImportEveryReadableResource(t *testing.T) {
	tests := map[string]struct {
		typ     string
		news    map[string]any
		id      func(r *res) string // the import ID of a created resource
		ignored []string            // inputs an ID cannot tell
	}{
		"pet":              {typ: "plinth:random:Pet", news: map[string]any{"length": 3}, id: func(r *res) string { return r.id }},
		"string":           {typ: "plinth:random:String", news: map[string]any{"length": 12}, id: func(r *res) string { return r.id }},
		"integer":          {typ: "plinth:random:Integer", news: map[string]any{"min": 1, "max": 9}, id: func(r *res) string { return r.id + ",1,9" }},
		"integer seeded":   {typ: "plinth:random:Integer", news: map[string]any{"min": -5, "max": 500, "seed": "s"}, id: func(r *res) string { return r.id + ",-5,500,s" }},
		"sleep":            {typ: "plinth:time:Sleep", news: map[string]any{}, id: func(r *res) string { return r.id }},
		"pet with keepers": {typ: "plinth:random:Pet", news: map[string]any{"keepers": map[string]any{"k": "v"}}, id: func(r *res) string { return r.id }, ignored: []string{"keepers"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			created := h.create(tt.typ, name, tt.news)
			resp, err := h.p.Read(h.ctx, provider.ReadRequest{URN: created.urn, ID: tt.id(created)})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			want := res{urn: created.urn, id: created.id, inputs: created.inputs, outputs: created.outputs}
			for _, k := range tt.ignored {
				want.inputs, want.outputs = without(want.inputs, k), without(want.outputs, k)
			}
			got := res{urn: created.urn, id: resp.ID, inputs: resp.Inputs, outputs: resp.Outputs}
			if d := cmp.Diff(want, got, valueCmp, cmp.AllowUnexported(res{})); d != "" {
				t.Errorf("imported (-created +imported):\n%s", d)
			}
			if d := cmp.Diff(created, h.refresh(created), valueCmp, cmp.AllowUnexported(res{})); d != "" {
				t.Errorf("refresh changed the resource (-created +refreshed):\n%s", d)
			}
		})
	}
}

func without(o resource.Object, key string) resource.Object {
	out := resource.Object{}
	for k, v := range o {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// An ID that cannot be what the resource's ID is says how to write one.
func TestImportRefusesMalformedIDs(t *testing.T) {
	tests := map[string]struct{ typ, id, want string }{
		"pet":             {"plinth:random:Pet", "-otter", `words joined by "-"`},
		"integer":         {"plinth:random:Integer", "forty", `"result,min,max"`},
		"integer two":     {"plinth:random:Integer", "4,1", `"result,min,max"`},
		"integer outside": {"plinth:random:Integer", "40,1,9", "not between min 1 and max 9"},
		"command":         {"plinth:exec:Command", "abc", "cannot be imported: its scripts exist only in the program"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			_, err := h.p.Read(h.ctx, provider.ReadRequest{URN: urnOf(tt.typ, "x"), ID: tt.id})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("import of %q: got %v, want an error saying %q", tt.id, err, tt.want)
			}
		})
	}
}
