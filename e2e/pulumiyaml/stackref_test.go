//go:build unix

package pulumiyaml_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStackReference: two stacks of one project, each reading an output
// of the stack its config names through pulumi:pulumi:StackReference,
// from plinth's backend. The values are seeded by the stack's name, so
// each stack's own output is known only by running it; a reference to a
// stack without that output reads null.
func TestStackReference(t *testing.T) {
	p := newProject(t, "stackref")
	dev := outputs(t, p, "dev")
	if dev["theirs"] != nil {
		t.Errorf("dev reading its own output before it has one: %v, want null", dev["theirs"])
	}
	prod := outputs(t, p, "prod")
	if diff := cmp.Diff(dev["word"], prod["theirs"]); diff != "" {
		t.Errorf("prod reading dev's word (-dev +prod's reference):\n%s", diff)
	}
	if dev["word"] == prod["word"] {
		t.Errorf("both stacks have word %v: the test cannot tell them apart", dev["word"])
	}
	p.run("config", "set", "source", "prod")
	dev = outputs(t, p, "dev")
	if diff := cmp.Diff(prod["word"], dev["theirs"]); diff != "" {
		t.Errorf("dev reading prod's word (-prod +dev's reference):\n%s", diff)
	}
}

// outputs runs up on stack and returns its outputs.
func outputs(t *testing.T, p *project, stack string) map[string]any {
	t.Helper()
	p.run("up", "--yes", "--skip-preview", "--stack", stack)
	var out map[string]any
	if err := json.Unmarshal([]byte(p.run("stack", "output", "--json", "--stack", stack).Stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
