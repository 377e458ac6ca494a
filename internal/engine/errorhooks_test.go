package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// TestErrorHooks: a failed create, update or delete runs the resource's
// error hooks with the operation and its errors so far, newest first; one
// that asks to retry has the provider called again, one that does not
// leaves the failure as it was. The delete of a resource the program no
// longer declares finds its error hooks by the names the state records.
// Before, error hooks were refused.
func TestErrorHooks(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	failing := map[string]int{} // operation → failures to come
	failNext := func(op string) error {
		mu.Lock()
		defer mu.Unlock()
		if failing[op] > 0 {
			failing[op]--
			return fmt.Errorf("%s busy", op)
		}
		return nil
	}
	create, update, del := h.fake.CreateF, h.fake.UpdateF, h.fake.DeleteF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if err := failNext("create"); err != nil && !req.Preview {
			return provider.CreateResponse{}, err
		}
		return create(ctx, req)
	}
	h.fake.UpdateF = func(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
		if err := failNext("update"); err != nil && !req.Preview {
			return provider.UpdateResponse{}, err
		}
		return update(ctx, req)
	}
	h.fake.DeleteF = func(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		if err := failNext("delete"); err != nil {
			return provider.DeleteResponse{}, err
		}
		return del(ctx, req)
	}
	var calls []string
	hook := func(name string, retry bool) engine.ErrorHook {
		return engine.ErrorHook{Name: name, Run: func(_ context.Context, c engine.ErrorHookCall) (bool, error) {
			calls = append(calls, fmt.Sprintf("%s %s %s %q", name, c.Operation, c.URN.Name(), c.Errors))
			return retry, nil
		}}
	}
	withHooks := func(x int, hooks ...engine.ErrorHook) spec {
		return spec{name: "a", inputs: map[string]any{"x": x}, opt: func(r *engine.Registration) { r.Hooks.OnError = hooks }}
	}
	take := func() []string { out := calls; calls = nil; return out }

	failing["create"] = 2
	h.mustUp(prog{withHooks(1, hook("retry", true))})
	if diff := cmp.Diff([]string{`retry create a ["create busy"]`, `retry create a ["create busy" "create busy"]`}, take()); diff != "" {
		t.Errorf("error hooks of the create (-want +got):\n%s", diff)
	}
	diffStrings(t, "state", []string{"a"}, h.names())

	failing["update"] = 1
	_, err := h.up(prog{withHooks(2, hook("give-up", false))})
	if err == nil || !strings.Contains(err.Error(), "update busy") {
		t.Errorf("update whose error hook does not retry: %v, want the provider's failure", err)
	}
	if diff := cmp.Diff([]string{`give-up update a ["update busy"]`}, take()); diff != "" {
		t.Errorf("error hooks of the update (-want +got):\n%s", diff)
	}

	h.mustUp(finishing{p: prog{withHooks(1, hook("retry", true))}})
	failing["delete"] = 1
	h.mustUp(finishing{p: prog{}, errorHooks: map[string]engine.ErrorHook{"retry": hook("retry", true)}})
	if diff := cmp.Diff([]string{`retry delete a ["delete busy"]`}, take()); diff != "" {
		t.Errorf("error hooks of the delete, found by name (-want +got):\n%s", diff)
	}
	diffStrings(t, "state after the delete", nil, h.names())
}

// TestErrorHooksGiveUp: a hook that always asks to retry is stopped after
// 100 failures, as Pulumi stops it; a hook that fails ends the retrying
// with its error.
func TestErrorHooksGiveUp(t *testing.T) {
	for name, tc := range map[string]struct {
		hook engine.ErrorHook
		want string
	}{
		"always retry": {engine.ErrorHook{Name: "again", Run: func(context.Context, engine.ErrorHookCall) (bool, error) { return true, nil }},
			"asked to retry the create 99 times"},
		"hook fails": {engine.ErrorHook{Name: "broken", Run: func(context.Context, engine.ErrorHookCall) (bool, error) { return false, errors.New("hook broke") }},
			`the error hook "broken" failed: hook broke`},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			calls := 0
			h.fake.CreateF = func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
				if req.Preview {
					return provider.CreateResponse{Outputs: req.Inputs}, nil
				}
				calls++
				return provider.CreateResponse{}, errors.New("never")
			}
			_, err := h.up(prog{{name: "a", opt: func(r *engine.Registration) { r.Hooks.OnError = []engine.ErrorHook{tc.hook} }}})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "never") {
				t.Errorf("error = %v, want the provider's and %q", err, tc.want)
			}
			if name == "always retry" && calls != 100 {
				t.Errorf("Create was called %d times, want 100", calls)
			}
			diffStrings(t, "state", nil, h.names())
		})
	}
}
