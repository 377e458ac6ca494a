package engine_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// TestRefreshRecordsAPrivateOnlyChangeSilently: a refresh whose read
// finds the resource as recorded but returns new private bytes (a
// Terraform provider's new binary records its fingerprint there) records
// them, so later runs see them, but counts the resource as the same and
// leaves its modification time alone: nothing the user manages changed,
// as terraform's refresh-only plan shows no change for it. A read that
// also changes an output is still an update.
func TestRefreshRecordsAPrivateOnlyChangeSilently(t *testing.T) {
	tests := map[string]struct {
		drift     bool
		wantCount map[engine.StepOp]int
	}{
		"private only":          {wantCount: map[engine.StepOp]int{engine.OpSame: 2}},
		"private and an output": {drift: true, wantCount: map[engine.StepOp]int{engine.OpSame: 1, engine.OpUpdate: 1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}, {name: "b"}})
			before := h.get("a")
			read := h.fake.ReadF
			h.fake.ReadF = func(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
				resp, err := read(ctx, req)
				if req.URN.Name() == "a" {
					resp.Private = []byte("new fingerprint")
					if tc.drift {
						resp.Outputs = resp.Outputs.Copy()
						resp.Outputs["out"] = resp.Outputs["x"]
					}
				}
				return resp, err
			}
			res, err := h.refresh()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantCount, res.Counts); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			after := h.get("a")
			if string(after.Private) != "new fingerprint" {
				t.Errorf("a's private bytes after the refresh = %q, want the read's", after.Private)
			}
			if moved := !after.Modified.Equal(before.Modified); moved != tc.drift {
				t.Errorf("a's modification time moved: %v (%v to %v); want %v", moved, before.Modified, after.Modified, tc.drift)
			}
			for _, e := range h.events {
				if e.Kind == engine.EventStepDone && e.URN.Name() == "a" && len(e.Diff.Paths()) > 0 != tc.drift {
					t.Errorf("a's refresh event shows drift %v; want drift: %v", e.Diff.Paths(), tc.drift)
				}
			}
		})
	}
}
