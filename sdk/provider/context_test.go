package provider_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
)

type callerKey struct{}

// The context author code runs with carries the configuration and the
// caller's values and deadline, and is cancelled by the caller (with its
// cause), by Cancel (with the SDK's cause, children included) and when
// the call returns, whenever the code first looks at it.
func TestAuthorCodeContext(t *testing.T) {
	deadline := time.Now().Add(time.Hour)
	errCaller := errors.New("the caller gave up")
	tests := map[string]struct {
		// during runs inside Check; after, if set, once Check returned.
		during func(ctx context.Context, p provider.Provider, cancelCaller context.CancelCauseFunc) string
		after  func(ctx context.Context) string
		want   string
	}{
		"configuration": {
			during: func(ctx context.Context, _ provider.Provider, _ context.CancelCauseFunc) string {
				return provider.GetConfig[toyConfig](ctx).Greeting
			},
			want: "hello",
		},
		"caller's value and deadline": {
			during: func(ctx context.Context, _ provider.Provider, _ context.CancelCauseFunc) string {
				d, ok := ctx.Deadline()
				return fmt.Sprint(ctx.Value(callerKey{}), " ", d.Equal(deadline), ok)
			},
			want: "from the caller true true",
		},
		"caller cancels, with its cause": {
			during: func(ctx context.Context, _ provider.Provider, cancel context.CancelCauseFunc) string {
				cancel(errCaller)
				waitDone(ctx)
				return fmt.Sprint(ctx.Err(), "; ", context.Cause(ctx))
			},
			want: "context canceled; the caller gave up",
		},
		"Cancel reaches a child, with the SDK's cause": {
			during: func(ctx context.Context, p provider.Provider, _ context.CancelCauseFunc) string {
				child, stop := context.WithCancel(ctx)
				defer stop()
				if _, err := p.Cancel(context.Background(), provider.CancelRequest{}); err != nil {
					return err.Error()
				}
				waitDone(child)
				cause := context.Cause(child)
				if cause == nil {
					return "not cancelled"
				}
				return fmt.Sprint(errors.Is(cause, context.Canceled), strings.Contains(cause.Error(), "asked to cancel"))
			},
			want: "true true",
		},
		"not yet cancelled during the call": {
			during: func(ctx context.Context, _ provider.Provider, _ context.CancelCauseFunc) string {
				select {
				case <-ctx.Done():
					return "done"
				default:
					return fmt.Sprint(ctx.Err())
				}
			},
			want: "<nil>",
		},
		"cancelled when the call returns, looked at during it": {
			during: func(ctx context.Context, _ provider.Provider, _ context.CancelCauseFunc) string {
				return fmt.Sprint(ctx.Err(), " ")
			},
			after: func(ctx context.Context) string {
				waitDone(ctx)
				return fmt.Sprint(ctx.Err())
			},
			want: "<nil> context canceled",
		},
		"cancelled when the call returns, first looked at after it": {
			during: func(context.Context, provider.Provider, context.CancelCauseFunc) string { return "" },
			after: func(ctx context.Context) string {
				waitDone(ctx)
				return fmt.Sprint(ctx.Err(), "; ", context.Cause(ctx))
			},
			want: "context canceled; context canceled",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), callerKey{}, "from the caller"))
			defer cancel(nil)
			parent, stop := context.WithDeadline(parent, deadline)
			defer stop()
			var got string
			var seen context.Context
			full := &fullToy{}
			p := configured(t, full)
			full.CheckF = func(ctx context.Context, op provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error) {
				seen, got = ctx, tc.during(ctx, p, cancel)
				return provider.CheckResult[toyArgs]{Inputs: op.News}, nil
			}
			if _, err := p.Check(parent, provider.CheckRequest{URN: fullURN("a"), News: obj(map[string]any{"name": "x"})}); err != nil {
				t.Fatal(err)
			}
			if tc.after != nil {
				got += tc.after(seen)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// waitDone waits for ctx to be done, or a while: a context never
// cancelled then shows as a nil Err instead of a hung test.
func waitDone(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
}
