package engine_test

import (
	"errors"
	"sort"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
)

// stepLog collects the steps CheckStep is asked about, as "op name".
type stepLog struct {
	mu    sync.Mutex
	steps []string
}

func (l *stepLog) check(p engine.PlannedStep) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.steps = append(l.steps, string(p.Op)+" "+p.URN.Name())
	return nil
}

func (l *stepLog) sorted() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	sort.Strings(l.steps)
	return l.steps
}

// TestCheckStepSeesThePreviewsStepsInTheUpdate: a preview and the update
// after it ask CheckStep about the same steps (creates, updates, deletes),
// not about same steps.
func TestCheckStepSeesThePreviewsStepsInTheUpdate(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "gone"}, {name: "same"}})
	next := prog{{name: "a", inputs: map[string]any{"x": 2}}, {name: "same"}, {name: "b", deps: []string{"a"}, from: map[string]string{"y": "a.out"}}}
	var previewed, updated stepLog
	h.opts = func(o *engine.Options) { o.CheckStep = previewed.check }
	if _, err := h.preview(next); err != nil {
		t.Fatal(err)
	}
	h.opts = func(o *engine.Options) { o.CheckStep = updated.check }
	h.mustUp(next)
	want := []string{"create b", "delete gone", "update a"}
	diffStrings(t, "previewed steps", want, previewed.sorted())
	diffStrings(t, "updated steps", want, updated.sorted())
}

// TestCheckStepRefusalStopsTheUpdate: a step CheckStep refuses does not
// start, records nothing, and the operation fails with its error.
func TestCheckStepRefusalStopsTheUpdate(t *testing.T) {
	h := newHarness(t)
	refused := errors.New("not in the plan")
	h.opts = func(o *engine.Options) {
		o.Parallel = 1
		o.CheckStep = func(p engine.PlannedStep) error {
			if p.URN.Name() == "b" {
				return refused
			}
			return nil
		}
	}
	_, err := h.up(prog{{name: "a"}, {name: "b", deps: []string{"a"}}, {name: "c", deps: []string{"b"}}})
	if !errors.Is(err, refused) {
		t.Fatalf("update: %v, want the refusal", err)
	}
	diffStrings(t, "state", []string{"a"}, h.names())
	diffStrings(t, "world", []string{"a-1"}, h.world.ids())
}
