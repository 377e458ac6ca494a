//go:build unix

package pulumiyaml_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDestroyShowsOutputsRemoved: destroying a stack of outputs and no
// resources shows, in the preview and in the destroy, what pulumi v3.259
// showed for pulumi-yaml's l1-builtin-info program: the stack resource
// deleted, counted ("- 1 deleted"), and each output listed under
// "Outputs:" marked "- ". Before, plinth showed an empty Resources block
// and no output at all.
func TestDestroyShowsOutputsRemoved(t *testing.T) {
	p := newProject(t, "outputsonly")
	p.run("up", "--yes", "--skip-preview")
	out := p.run("destroy", "--yes").Stdout
	preview, destroy, ok := strings.Cut(out, "Destroying (dev):")
	if !ok {
		t.Fatalf("no Destroying heading in:\n%s", out)
	}
	tests := map[string]struct {
		out, count string
	}{
		"preview": {out: preview, count: "- 1 to delete"},
		"destroy": {out: destroy, count: "- 1 deleted"},
	}
	wantOutputs := []string{"Outputs:", `  - first   : "north"`, `  - greeting: "hello from dev"`}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := summary(t, tc.out); got != tc.count {
				t.Errorf("Resources block %q, want %q", got, tc.count)
			}
			if diff := cmp.Diff(wantOutputs, outputsBlock(tc.out)); diff != "" {
				t.Errorf("Outputs block (-want +got):\n%s\nin:\n%s", diff, tc.out)
			}
			if !strings.Contains(tc.out, " -  pulumi:pulumi:Stack outputsonly-dev delete") {
				t.Errorf("no line deleting the stack resource in:\n%s", tc.out)
			}
		})
	}
}

// outputsBlock is the Outputs block of out, its heading and lines up to
// the blank line that ends it.
func outputsBlock(out string) []string {
	var block []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == "Outputs:":
			block = []string{l}
		case block != nil && l == "":
			return block
		case block != nil:
			block = append(block, l)
		}
	}
	return block
}

// TestRefusedDeleteCountsStackUnchanged: a program that drops its one
// protected resource (pulumi/pulumi's protect_resources, step 3) fails,
// and the stack, made by the first up, is counted unchanged, as pulumi
// v3.259 counted it ("1 unchanged", and "2 errored": the resource and the
// stack); plinth counted it created ("+ 1 to create", "1 errored"), as for
// a stack's first update, since no step had touched a resource recorded
// before.
func TestRefusedDeleteCountsStackUnchanged(t *testing.T) {
	p := newProject(t, "protected")
	p.run("up", "--yes", "--skip-preview")
	p.edit("resources:", "resourcesDropped:")
	r := p.try("preview")
	if r.Code == 0 || !strings.Contains(r.Output(), "protect") {
		t.Fatalf("preview of a program dropping a protected resource did not fail for the protection:\n%s", r.Output())
	}
	if diff := cmp.Diff("1 unchanged, 2 errored", summary(t, r.Stdout)); diff != "" {
		t.Errorf("Resources block (-pulumi's +plinth's):\n%s\n%s", diff, r.Output())
	}
}
