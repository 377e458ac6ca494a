package registry

import (
	"context"
	"sync"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// Prestarting: a command that knows, before it loads its state, which
// plugin binaries its providers will come from (a Terraform
// configuration's required providers, found while checking them) starts
// them in the background, so that launching the process, its handshake
// and its schema overlap the state's loading instead of following it.
// NewProvider hands a prestarted provider to the first request that
// picks the same binary (by path, so a version constraint spelled two
// ways still matches); Release closes those no request took.

// prestarts holds the providers started ahead of NewProvider, by path.
type prestarts struct {
	mu      sync.Mutex
	started map[string]*prestarted
}

// prestarted is one provider being started or started; done is closed
// when prov and err are set.
type prestarted struct {
	done chan struct{}
	prov provider.Provider
	err  error
}

// Prestart starts p's provider in the background for a later NewProvider
// that picks p. Nothing happens for a protocol without a launcher, or a
// path already prestarted. The caller must call Release when the command
// ends.
func (s *Source) Prestart(p plugin.Plugin) {
	l := s.launcher(p.Protocol)
	if l == nil {
		return
	}
	s.pre.mu.Lock()
	defer s.pre.mu.Unlock()
	if _, ok := s.pre.started[p.Path]; ok {
		return
	}
	if s.pre.started == nil {
		s.pre.started = map[string]*prestarted{}
	}
	ps := &prestarted{done: make(chan struct{})}
	s.pre.started[p.Path] = ps
	go func() {
		defer close(ps.done)
		// Not the command's context: Release, not a cancellation, ends
		// a provider no one took, and the first taker waits for it.
		ps.prov, ps.err = l.Launch(context.Background(), p)
	}()
}

// takePrestarted returns the provider prestarted from path, waiting for
// its start; ok is false if there is none. A start that failed is
// reported as NewProvider's own would be.
func (s *Source) takePrestarted(ctx context.Context, path string) (prov provider.Provider, ok bool, err error) {
	s.pre.mu.Lock()
	ps := s.pre.started[path]
	delete(s.pre.started, path)
	s.pre.mu.Unlock()
	if ps == nil {
		return nil, false, nil
	}
	select {
	case <-ps.done:
		return ps.prov, true, ps.err
	case <-ctx.Done():
		go closeWhenStarted(ps)
		return nil, true, context.Cause(ctx)
	}
}

// Release closes the prestarted providers no NewProvider took, once they
// have started, and the providers carried for an operation that did not
// come (see Carry).
func (s *Source) Release() {
	s.releaseCarried()
	s.pre.mu.Lock()
	left := s.pre.started
	s.pre.started = nil
	s.pre.mu.Unlock()
	for _, ps := range left {
		closeWhenStarted(ps)
	}
}

func closeWhenStarted(ps *prestarted) {
	<-ps.done
	if ps.err == nil {
		_ = ps.prov.Close()
	}
}
