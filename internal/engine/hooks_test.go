package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// hookLog records the hooks run, as "hook resource id=ID x=NEW old=OLD".
type hookLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *hookLog) hook(name string, fail, onPreview bool) engine.Hook {
	return engine.Hook{Name: name, OnPreview: onPreview, Run: func(_ context.Context, c engine.HookCall) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.calls = append(l.calls, fmt.Sprintf("%s %s id=%s x=%v old=%v", name, c.URN.Name(), c.ID, c.NewInputs["x"], c.OldInputs["x"]))
		if fail {
			return errors.New("the hook said no")
		}
		return nil
	}}
}

func (l *hookLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.calls
	l.calls = nil
	return out
}

func hooked(hooks engine.Hooks, x int) spec {
	return spec{name: "a", inputs: map[string]any{"x": x}, opt: func(r *engine.Registration) { r.Hooks = hooks }}
}

// TestHooksRunAroundCreateAndUpdate: before and after hooks run around a
// create and an update with the resource's URN, ID and inputs (old ones
// for an update); none runs for an unchanged resource, nor in a preview
// unless it asks to.
func TestHooksRunAroundCreateAndUpdate(t *testing.T) {
	var l hookLog
	hooks := engine.Hooks{
		BeforeCreate: []engine.Hook{l.hook("bc", false, false)}, AfterCreate: []engine.Hook{l.hook("ac", false, false)},
		BeforeUpdate: []engine.Hook{l.hook("bu", false, true)}, AfterUpdate: []engine.Hook{l.hook("au", false, false)},
	}
	h := newHarness(t)
	if _, err := h.preview(prog{hooked(hooks, 1)}); err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "hooks in the preview of a create", nil, l.take())
	h.mustUp(prog{hooked(hooks, 1)})
	id := h.get("a").ID
	diffStrings(t, "hooks of the create", []string{"bc a id= x=1 old=null", "ac a id=" + id + " x=1 old=null"}, l.take())
	if _, err := h.preview(prog{hooked(hooks, 2)}); err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "hooks in the preview of an update (bu runs on previews)", []string{"bu a id=" + id + " x=2 old=1"}, l.take())
	h.mustUp(prog{hooked(hooks, 2)})
	diffStrings(t, "hooks of the update", []string{"bu a id=" + id + " x=2 old=1", "au a id=" + id + " x=2 old=1"}, l.take())
	h.mustUp(prog{hooked(hooks, 2)})
	diffStrings(t, "hooks of an unchanged resource", nil, l.take())
}

// TestFailingHooks: a before-create hook that fails fails the step before
// the provider is called (nothing made or recorded), naming the resource
// and the hook; an after-create hook that fails fails the update once the
// resource is created and recorded, as in Pulumi v3.259 (it was a
// warning), and with ignoreErrors is a warning.
func TestFailingHooks(t *testing.T) {
	var l hookLog
	h := newHarness(t)
	_, err := h.up(prog{hooked(engine.Hooks{BeforeCreate: []engine.Hook{l.hook("guard", true, false)}}, 1)})
	if err == nil || !strings.Contains(err.Error(), `the before-create hook "guard" failed`) || !strings.Contains(err.Error(), "the hook said no") {
		t.Fatalf("error = %v, want the before-create hook's failure", err)
	}
	diffStrings(t, "world history", nil, h.world.history())
	diffStrings(t, "state", nil, h.names())

	_, err = h.up(prog{hooked(engine.Hooks{AfterCreate: []engine.Hook{l.hook("notify", true, false)}}, 1)})
	if err == nil || !strings.Contains(err.Error(), `the after-create hook "notify" failed`) || !strings.Contains(err.Error(), "Thing::a") {
		t.Fatalf("error = %v, want the after-create hook's failure, naming a", err)
	}
	diffStrings(t, "state after the failed after-create hook", []string{"a"}, h.names())
	diffStrings(t, "world after the failed after-create hook", []string{h.get("a").ID}, h.world.ids())

	quiet := l.hook("notify", true, false)
	quiet.IgnoreErrors = true
	h.mustUp(prog{hooked(engine.Hooks{AfterUpdate: []engine.Hook{quiet}}, 2)})
	warned := false
	for _, e := range h.events {
		warned = warned || e.Kind == engine.EventDiagnostic && e.Severity == engine.SeverityWarning && strings.Contains(e.Message, `the after-update hook "notify" failed (its errors are ignored)`)
	}
	if !warned {
		t.Error("no warning about the failed after-update hook whose errors are ignored")
	}
}

// TestComponentHooks: a component's before-create hook runs before it is
// recorded and its after-create hook when it registers its outputs (told
// them), as Pulumi runs them; an update hook runs when its inputs change,
// none when they do not. Before, the monitor refused hooks on components.
func TestComponentHooks(t *testing.T) {
	var l hookLog
	hooks := engine.Hooks{
		BeforeCreate: []engine.Hook{l.hook("bc", false, false)}, AfterCreate: []engine.Hook{l.hook("ac", false, false)},
		BeforeUpdate: []engine.Hook{l.hook("bu", false, false)}, AfterUpdate: []engine.Hook{l.hook("au", false, false)},
	}
	var outs []string
	comp := func(x int) engine.Program {
		return engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
			res, err := engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Comp", Name: "c",
				Inputs: resource.Object{"x": resource.NewNumber(float64(x))}, Hooks: hooks})
			if err != nil {
				return err
			}
			l.mu.Lock()
			outs = append(outs, fmt.Sprint(len(l.calls)))
			l.mu.Unlock()
			return mon.RegisterOutputs(res.URN, resource.Object{"x": resource.NewNumber(float64(x))})
		})
	}
	h := newHarness(t)
	h.mustUp(comp(1))
	diffStrings(t, "hooks of the create", []string{"bc c id= x=1 old=null", "ac c id= x=1 old=null"}, l.take())
	diffStrings(t, "hooks run before the component's outputs were registered", []string{"1"}, outs)
	h.mustUp(comp(1))
	diffStrings(t, "hooks of an unchanged component", nil, l.take())
	h.mustUp(comp(2))
	diffStrings(t, "hooks of the update", []string{"bu c id= x=2 old=1", "au c id= x=2 old=1"}, l.take())
}
