package plinth_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestSleep(t *testing.T) {
	h := newHarness(t, "")
	s := h.create(plinth.SleepType, "s", map[string]any{"createDuration": "1ms", "destroyDuration": "1ms"})
	if s.id == "" || s.outputs["createDuration"].Str() != "1ms" {
		t.Errorf("created %+v", s)
	}
	s, d := h.up(s, map[string]any{"createDuration": "2ms", "destroyDuration": "1ms"})
	if d.Replaces() || !cmp.Equal(d.ChangedKeys, []string{"createDuration"}) {
		t.Errorf("a duration change must update in place: %+v", d)
	}
	_, d = h.up(s, map[string]any{"createDuration": "2ms", "destroyDuration": "1ms", "triggers": map[string]any{"a": 1}})
	if !cmp.Equal(d.ReplaceKeys, []string{"triggers"}) {
		t.Errorf("a trigger change must replace: %+v", d)
	}
	want := []provider.CheckFailure{
		{Property: "createDuration", Reason: `"soon" is not a duration: write a non-negative Go duration such as "30s", "1m30s" or "250ms"`},
		{Property: "destroyDuration", Reason: `"-1s" is not a duration: write a non-negative Go duration such as "30s", "1m30s" or "250ms"`},
	}
	if d := cmp.Diff(want, h.failures(plinth.SleepType, map[string]any{"createDuration": "soon", "destroyDuration": "-1s"})); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
}

// A long sleep stops as soon as the provider is cancelled.
func TestSleepHonoursCancel(t *testing.T) {
	h := newHarness(t, "")
	urn := urnOf(plinth.SleepType, "long")
	inputs := h.check(urn, nil, resource.ObjectFromGo(map[string]any{"createDuration": "1h"}))
	done := make(chan error)
	go func() {
		_, err := h.p.Create(context.Background(), provider.CreateRequest{URN: urn, Inputs: inputs})
		done <- err
	}()
	if _, err := h.p.Cancel(context.Background(), provider.CancelRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "waiting 1h0m0s was interrupted") {
		t.Errorf("err = %v", err)
	}
}
