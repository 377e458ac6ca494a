package provider

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestOutcomeUnknown(t *testing.T) {
	base := errors.New("connection reset")
	cases := map[string]struct {
		err  error
		want bool
	}{
		"plain error from a live provider": {base, false},
		"marked unknown":                   {OutcomeUnknown(base), true},
		"marked and wrapped":               {fmt.Errorf("creating x: %w", OutcomeUnknown(base)), true},
		"deadline":                         {fmt.Errorf("call: %w", context.DeadlineExceeded), true},
		"cancelled":                        {context.Canceled, true},
		"init error":                       {&InitError{ID: "i"}, false},
	}
	for name, c := range cases {
		if got := IsOutcomeUnknown(c.err); got != c.want {
			t.Errorf("%s: IsOutcomeUnknown = %v, want %v", name, got, c.want)
		}
	}
	if OutcomeUnknown(nil) != nil {
		t.Error("OutcomeUnknown(nil) is not nil")
	}
	if got := OutcomeUnknown(base); !errors.Is(got, base) || got.Error() != base.Error() {
		t.Errorf("OutcomeUnknown lost the cause: %v", got)
	}
}
