package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

const thing = "urn:pulumi:dev::proj::pkg:index:Thing::"

// TestTargetedPreviewShowsWhatTheUpdateDoes: with a target whose
// dependency must be replaced, the preview lists exactly the steps the
// update then takes.
func TestTargetedPreviewShowsWhatTheUpdateDoes(t *testing.T) {
	h := newHarness(t)
	replaceOnKey(h.fake, "k", false)
	h.mustUp(append(chain(1), spec{name: "other", inputs: map[string]any{"k": 1}}))
	next := append(chain(2), spec{name: "other", inputs: map[string]any{"k": 2}})
	next[1].inputs = map[string]any{"x": 2}
	h.opts = func(o *engine.Options) { o.Targets = []resource.URN{thing + "b"} }
	if _, err := h.preview(next); err != nil {
		t.Fatal(err)
	}
	previewed := h.ops()
	h.mustUp(next)
	if diff := cmp.Diff(previewed, h.ops()); diff != "" {
		t.Errorf("steps: preview (-) against update (+):\n%s", diff)
	}
	diffStrings(t, "update steps", []string{"create-replacement a", "delete-replaced a", "update b"}, h.ops())
}

// TestTargetsMustMatch: a target or exclude that names no resource is an
// error naming it, for every operation; so is a negative parallelism.
func TestTargetsMustMatch(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a"}})
	ops := map[string]func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error){
		"up": func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
			return engine.Update(ctx, prog{{name: "a"}}, base, o)
		},
		"preview": func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
			return engine.Preview(ctx, prog{{name: "a"}}, base, o)
		},
		"refresh": engine.Refresh,
		"destroy": engine.Destroy,
	}
	opts := map[string]struct {
		set  func(*engine.Options)
		want string
	}{
		"target":   {func(o *engine.Options) { o.Targets = []resource.URN{thing + "typo"} }, "target " + thing + "typo matches no resource"},
		"exclude":  {func(o *engine.Options) { o.Excludes = []resource.URN{thing + "nope"} }, "exclude " + thing + "nope matches no resource"},
		"parallel": {func(o *engine.Options) { o.Parallel = -1 }, "parallelism -1 is not allowed"},
	}
	for opName, op := range ops {
		for name, tc := range opts {
			t.Run(opName+"/"+name, func(t *testing.T) {
				h.opts = tc.set
				_, err := h.run(op)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v, want an error saying %q", err, tc.want)
				}
				var ue *engine.UnmatchedTargetError
				if name != "parallel" && !errors.As(err, &ue) {
					t.Errorf("got %T, want an UnmatchedTargetError", err)
				}
				diffStrings(t, "world", []string{"a-1"}, h.world.ids())
			})
		}
	}
}
