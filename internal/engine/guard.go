package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// guard runs f, turning a panic into an error: a provider that panics fails
// its step and never the engine.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("provider panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

// call runs a provider call under the step context, bounded by the
// timeout (or the operation's default), recovering panics. A call that
// fails after its context ended (a timeout, or a hard cancel) may have
// taken effect, whatever the provider said: its error is marked
// provider.OutcomeUnknown.
func (x *executor) call(timeout time.Duration, f func(ctx context.Context) error) error {
	ctx := x.ctx
	t := x.timeoutFor(timeout)
	if t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	err := guard(func() error { return f(ctx) })
	switch {
	case err == nil || ctx.Err() == nil:
		return err
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && t > 0:
		return provider.OutcomeUnknown(fmt.Errorf("timed out after %s: %w", t, err))
	}
	return provider.OutcomeUnknown(err)
}

// urnLocks serialises steps on one URN.
type urnLocks struct {
	mu sync.Mutex
	m  map[resource.URN]*urnLock
}

type urnLock struct {
	mu   sync.Mutex
	refs int
}

// lock takes the URN's lock and returns its release.
func (l *urnLocks) lock(urn resource.URN) func() {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[resource.URN]*urnLock{}
	}
	ul := l.m[urn]
	if ul == nil {
		ul = &urnLock{}
		l.m[urn] = ul
	}
	ul.refs++
	l.mu.Unlock()
	ul.mu.Lock()
	return func() {
		ul.mu.Unlock()
		l.mu.Lock()
		if ul.refs--; ul.refs == 0 {
			delete(l.m, urn)
		}
		l.mu.Unlock()
	}
}
