package tfplugin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
)

// validateWire counts the ValidateResourceConfig calls made through it
// and fails the first fail of them.
type validateWire struct {
	wire
	calls *atomic.Int32
	fail  *atomic.Int32
}

func (w validateWire) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	w.calls.Add(1)
	if w.fail.Add(-1) >= 0 {
		return nil, errors.New("provider crashed")
	}
	return w.wire.validateResourceConfig(ctx, typeName, config)
}

// TestSameConfigurationValidatedOnce: instances with the same
// configuration are validated by one ValidateResourceConfig call, even
// when checked at once, and each gets its diagnostics (here a warning
// naming it); a different configuration is validated on its own, and a
// call that failed is made again.
func TestSameConfigurationValidatedOnce(t *testing.T) {
	tests := map[string]struct {
		values    []string
		fail      int32
		wantCalls int32
		wantErrs  int
	}{
		"twelve of one":                {values: repeat("deprecated", 12), wantCalls: 1},
		"three configurations":         {values: append(repeat("deprecated", 6), append(repeat("a", 5), "b")...), wantCalls: 3},
		"a failed call is asked again": {values: []string{"deprecated", "deprecated"}, fail: 1, wantCalls: 2, wantErrs: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var warnings []string
			p := startFakeWarn(t, modePlain, func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() })
			w := validateWire{wire: p.wire, calls: new(atomic.Int32), fail: new(atomic.Int32)}
			w.fail.Store(tc.fail)
			p.wire = w
			var wg sync.WaitGroup
			var errs atomic.Int32
			var wantWarnings []string
			for i, v := range tc.values {
				name := fmt.Sprintf("t%d", i)
				if v == "deprecated" && (tc.fail == 0 || i > 0) {
					wantWarnings = append(wantWarnings, fmt.Sprintf(`provider fake warned during Check of fake_thing %q: property value: Deprecated value: use another one`, name))
				}
				check := func() {
					resp, err := p.Check(context.Background(), provider.CheckRequest{URN: urn("fake_thing", name), News: obj(map[string]any{"value": v})})
					if err != nil {
						errs.Add(1)
					} else if len(resp.Failures) > 0 {
						t.Errorf("Check of %s failed: %v", name, resp.Failures)
					}
				}
				if tc.fail > 0 { // in order: the failing call is the first
					check()
					continue
				}
				wg.Add(1)
				go func() { defer wg.Done(); check() }()
			}
			wg.Wait()
			if got := w.calls.Load(); got != tc.wantCalls {
				t.Errorf("%d ValidateResourceConfig calls, want %d", got, tc.wantCalls)
			}
			if got := int(errs.Load()); got != tc.wantErrs {
				t.Errorf("%d checks failed, want %d", got, tc.wantErrs)
			}
			slices.Sort(warnings)
			slices.Sort(wantWarnings)
			if diff := cmp.Diff(wantWarnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
