package pulumirpc

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// TestCallErrorIsCanceled: a call the plugin reports cancelled is
// context.Canceled to callers; other failures are not.
func TestCallErrorIsCanceled(t *testing.T) {
	tests := map[string]struct {
		code codes.Code
		want bool
	}{
		"cancelled":         {codes.Canceled, true},
		"failed":            {codes.Unknown, false},
		"deadline exceeded": {codes.DeadlineExceeded, false},
		"unavailable":       {codes.Unavailable, false},
	}
	for name, tc := range tests {
		e := grpcplugin.NewCallError("p", "Create", "", status.Error(tc.code, "x"))
		if got := errors.Is(e, context.Canceled); got != tc.want {
			t.Errorf("%s: errors.Is(%v, context.Canceled) = %v, want %v", name, e, got, tc.want)
		}
	}
}
