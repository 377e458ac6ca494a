package provider

import (
	"context"
	"sync"
	"time"
)

// call is one resource call as its handler sees it. The context author
// code runs with is made from it only when author code runs, so a call
// the SDK answers alone (the default Diff, a Delete without a Deleter)
// makes none, which matters when a preview diffs 100,000 resources.
type call struct {
	s      *server
	parent context.Context
	cfg    any
	// timeout bounds the author's code; zero means no bound.
	timeout time.Duration
}

// context returns the context author code runs with: cancelled by the
// caller, by Cancel and when the call returns (call release then),
// bounded by the call's timeout, carrying the configuration.
func (c call) context() (context.Context, func()) {
	ctx := &callContext{s: c.s, parent: c.parent, cfg: c.cfg}
	if c.timeout <= 0 {
		return ctx, ctx.end
	}
	timed, cancel := context.WithTimeout(ctx, c.timeout)
	return timed, func() { cancel(); ctx.end() }
}

// callContext is the context author code runs with. Most author code
// never looks at its context beyond the configuration (a random name
// needs no cancellation), so the cancellable context it stands for,
// cancelled by the caller, by Cancel and when the call ends, is derived
// only when the code first asks for anything else: until then the call
// costs one allocation instead of seven. It behaves as that context
// would, context.Cause and children included, since every method but
// Deadline and the configuration's Value answers from it.
type callContext struct {
	s      *server
	parent context.Context
	cfg    any

	mu      sync.Mutex
	derived context.Context // nil until first needed
	release func()          // of derived
	ended   bool
}

var _ context.Context = (*callContext)(nil)

// Deadline implements context.Context: the caller's deadline, which the
// derived context would have too.
func (c *callContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }

// Done implements context.Context.
func (c *callContext) Done() <-chan struct{} { return c.context().Done() }

// Err implements context.Context.
func (c *callContext) Err() error { return c.context().Err() }

// Value implements context.Context: the configuration (see GetConfig),
// else the derived context's values, which include the caller's.
func (c *callContext) Value(key any) any {
	if _, ok := key.(configKey); ok {
		return c.cfg
	}
	return c.context().Value(key)
}

// String names the context, as the standard library's do.
func (c *callContext) String() string { return "provider call context" }

// context derives the cancellable context the first time it is needed;
// once the call has ended it is derived already cancelled.
func (c *callContext) context() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.derived == nil {
		c.derived, c.release = c.s.cancellable(c.parent)
		if c.ended {
			c.release()
		}
	}
	return c.derived
}

// end cancels the context: the call has returned.
func (c *callContext) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	if c.release != nil {
		c.release()
	}
}
