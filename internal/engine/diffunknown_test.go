package engine_test

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
)

// replaceKeysFromOutputs makes the fake's Diff behave like a Pulumi
// dynamic provider whose diff compares the news with the recorded
// outputs: it answers "unknown" (leaving the engine to compare inputs)
// and names key for replacement whenever the outputs lack the new value,
// which they always do when create returned no outputs of its own.
func replaceKeysFromOutputs(f *provider.Fake, key string) {
	f.DiffF = func(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
		resp := provider.DiffResponse{Changes: provider.DiffUnknown}
		if !req.OldOutputs["hidden"].Equal(req.News[key]) {
			resp.ReplaceKeys = []string{key}
		}
		return resp, nil
	}
}

// TestUnknownDiffWithReplaceKeysAndSameInputs: a provider that answers
// "unknown" with replace keys replaces only when the inputs changed, as
// pulumi decides; before, plinth replaced such a resource on every run and
// a preview after up was never clean.
func TestUnknownDiffWithReplaceKeysAndSameInputs(t *testing.T) {
	tests := map[string]struct {
		next                int
		wantOp              engine.StepOp
		wantPreviewReplaces int
	}{
		"same inputs":    {next: 1, wantOp: engine.OpSame},
		"changed inputs": {next: 2, wantOp: engine.OpReplace, wantPreviewReplaces: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			replaceKeysFromOutputs(h.fake, "replace")
			program := func(v int) prog { return prog{{name: "a", inputs: map[string]any{"replace": v}}} }
			h.mustUp(program(1))
			preview, err := h.preview(program(tc.next))
			if err != nil {
				t.Fatal(err)
			}
			if got := preview.Counts[engine.OpReplace]; got != tc.wantPreviewReplaces {
				t.Errorf("preview counts %v, want %d replaces", preview.Counts, tc.wantPreviewReplaces)
			}
			res := h.mustUp(program(tc.next))
			if got := res.Counts[tc.wantOp]; got != 1 {
				t.Errorf("up counts %v, want one %v", res.Counts, tc.wantOp)
			}
		})
	}
}
