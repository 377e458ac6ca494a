package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
)

// finishing is a program that, having registered its resources, calls
// Finish with its hooks as a Pulumi SDK signals and waits for shutdown;
// log records what the program saw after Finish returned.
type finishing struct {
	p          engine.Program
	hooks      map[string]engine.Hook
	errorHooks map[string]engine.ErrorHook
	after      func()
}

func (f finishing) Run(ctx context.Context, mon engine.Monitor) error {
	if err := f.p.Run(ctx, mon); err != nil {
		return err
	}
	fin, ok := mon.(engine.Finisher)
	if !ok {
		return errors.New("the update's monitor is not a Finisher")
	}
	fin.Finish(func(name string) (engine.Hook, bool) { h, ok := f.hooks[name]; return h, ok },
		func(name string) (engine.ErrorHook, bool) { h, ok := f.errorHooks[name]; return h, ok })
	if f.after != nil {
		f.after()
	}
	return nil
}

// withDeleteHooks names the delete hooks bd and ad on a resource x=n,
// replaced when x changes.
func withDeleteHooks(name string, x int) spec {
	return spec{name: name, inputs: map[string]any{"x": x}, opt: func(r *engine.Registration) {
		r.Hooks = engine.Hooks{BeforeDelete: []string{"bd"}, AfterDelete: []string{"ad"}}
		r.ReplaceOnChanges = []string{"x"}
	}}
}

// TestDeleteHooks: the state records a resource's delete hooks by name;
// they run, found by name among the hooks the program registered, around
// the delete of a resource the program no longer declares (before the
// program's Finish returns, so the program is still there to run them)
// and around a replacement's delete, told the old inputs; in a preview
// only those that ask to.
func TestDeleteHooks(t *testing.T) {
	var l hookLog
	hooks := map[string]engine.Hook{"bd": l.hook("bd", false, true), "ad": l.hook("ad", false, false)}
	h := newHarness(t)
	h.mustUp(finishing{p: prog{withDeleteHooks("a", 1)}, hooks: hooks})
	if diff := cmp.Diff(state.DeleteHooks{Before: []string{"bd"}, After: []string{"ad"}}, h.get("a").DeleteHooks); diff != "" {
		t.Errorf("recorded delete hooks (-want +got):\n%s", diff)
	}
	diffStrings(t, "hooks of the create", nil, l.take())

	h.mustUp(finishing{p: prog{withDeleteHooks("a", 2)}, hooks: hooks})
	diffStrings(t, "hooks of the replacement", []string{"bd a id=a-1 x=null old=1", "ad a id=a-1 x=null old=1"}, l.take())

	if _, err := h.preview(finishing{p: prog{}, hooks: hooks}); err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "hooks in the preview of the delete (bd runs on previews)", []string{"bd a id=a-2 x=null old=2"}, l.take())

	var seen []string
	h.mustUp(finishing{p: prog{}, hooks: hooks, after: func() { seen = l.take() }})
	diffStrings(t, "hooks run before Finish returned", []string{"bd a id=a-2 x=null old=2", "ad a id=a-2 x=null old=2"}, seen)
	diffStrings(t, "state", nil, h.names())
}

// TestDeleteHooksThatCannotRun: a resource whose recorded delete hooks
// cannot run is not deleted, with an error naming it and the hook: the
// program no longer registers the hook, the program exited without
// calling Finish, a destroy (refused before anything is deleted), and a
// before-delete hook that fails.
func TestDeleteHooksThatCannotRun(t *testing.T) {
	var l hookLog
	hooks := map[string]engine.Hook{"bd": l.hook("bd", false, false), "ad": l.hook("ad", false, false)}
	cases := map[string]struct {
		op   func(h *harness) error
		want string
	}{
		"hook no longer registered": {func(h *harness) error {
			_, err := h.up(finishing{p: prog{}, hooks: map[string]engine.Hook{"ad": hooks["ad"]}})
			return err
		}, `its before-delete hook "bd" is not registered by the program`},
		"program did not finish": {func(h *harness) error { _, err := h.up(prog{}); return err }, `its before-delete hook "bd" cannot run`},
		"destroy": {func(h *harness) error {
			_, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
				return engine.Destroy(ctx, base, o)
			})
			return err
		}, `its after-delete hook "ad" cannot run`},
		"before-delete hook fails": {func(h *harness) error {
			_, err := h.up(finishing{p: prog{}, hooks: map[string]engine.Hook{"bd": l.hook("bd", true, false), "ad": hooks["ad"]}})
			return err
		}, `the before-delete hook "bd" failed, so the resource was not deleted`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(finishing{p: prog{withDeleteHooks("a", 1), {name: "b"}}, hooks: hooks})
			l.take()
			err := c.op(h)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Thing::a") {
				t.Fatalf("error = %v, want one naming a and containing %q", err, c.want)
			}
			if !strings.Contains(strings.Join(h.names(), " "), "a") {
				t.Errorf("a was deleted: state holds %q", h.names())
			}
			if strings.Contains(strings.Join(l.take(), " "), "ad ") {
				t.Error("the after-delete hook ran although a was not deleted")
			}
		})
	}
}
