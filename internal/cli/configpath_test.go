package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestParseConfigPath reads Pulumi's path forms and refuses malformed
// ones; a path prints back as it was written.
func TestParseConfigPath(t *testing.T) {
	cases := map[string]struct {
		want configPath
		err  bool
	}{
		"obj.inner":       {want: configPath{key: "obj", steps: []pathStep{{name: "inner"}}}},
		`aws:tags["a.b"]`: {want: configPath{key: "aws:tags", steps: []pathStep{{name: "a.b"}}}},
		"list[2].x":       {want: configPath{key: "list", steps: []pathStep{{index: 2, isIdx: true}, {name: "x"}}}},
		"plain":           {want: configPath{key: "plain"}},
		"obj..x":          {err: true},
		"obj[x]":          {err: true},
		"obj[1":           {err: true},
		".x":              {err: true},
		"obj[-1]":         {err: true},
		`obj["unclosed]`:  {err: true},
	}
	for in, c := range cases {
		t.Run(in, func(t *testing.T) {
			got, err := parseConfigPath(in)
			if c.err {
				if err == nil {
					t.Fatalf("parseConfigPath(%q) = %+v, want an error", in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(configPath{}, pathStep{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got.String() != in {
				t.Errorf("String() = %q, want %q", got.String(), in)
			}
		})
	}
}

// TestConfigPathSetAndRemove builds objects and arrays on the way, types
// leaves as Pulumi does, and removes just the value at the path.
func TestConfigPathSetAndRemove(t *testing.T) {
	var root *yaml.Node
	for _, s := range []struct{ path, value string }{{"o.a[0]", "x"}, {"o.a[1]", "7"}, {"o.b.c", "true"}, {"o.d", "text"}} {
		p, err := parseConfigPath(s.path)
		if err != nil {
			t.Fatal(err)
		}
		if root, err = p.set(root, pathLeaf(s.value)); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := parseConfigPath("o.a[0]")
	if !p.remove(root) {
		t.Fatal("o.a[0] was not removed")
	}
	var got any
	if err := root.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{7}, "b": map[string]any{"c": true}, "d": "text"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestPulumiConfigDefaults: a key the stack's config does not set takes
// the default Pulumi.yaml declares, as pulumi gives it to the program
// (pulumi-language-yaml refused `type: array` with a default the stack
// did not set: the value never came); a key the stack sets keeps its
// value; the project's namespace is dropped as for the stack's keys.
func TestPulumiConfigDefaults(t *testing.T) {
	proj := &langhost.Project{Name: "p", File: "Pulumi.yaml", ConfigDefaults: map[string]any{
		"words": []any{"alpha", "beta"}, "count": 2, "p:label": "x", "aws:region": "us-west-2",
	}}
	got, err := withDefaults(map[string]resource.Value{"count": resource.NewString("5")}, proj)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]resource.Value{
		"words":      resource.NewArray(resource.NewString("alpha"), resource.NewString("beta")),
		"count":      resource.NewString("5"),
		"label":      resource.NewString("x"),
		"aws:region": resource.NewString("us-west-2"),
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
}
