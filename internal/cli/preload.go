package cli

import (
	"context"
	"errors"
	"sync"

	"github.com/plinth-iac/plinth/internal/state"
)

// statePreload reads a stack's state in the background while prepare
// parses the program (a 100,000-resource plinth.yaml takes as long to
// parse as its state takes to read), for preview, which reads the state
// without locking it. Reading writes nothing, so a preload that is never
// taken (the program is malformed) leaves no trace: its warnings are
// held until take, and its crypter, which prepare opens only once the
// program is good, is failed by abandon.
type statePreload struct {
	crypter *lateCrypter
	done    chan struct{}
	snap    *state.Snapshot
	version state.Version
	err     error
	warns   []string
}

// preloadState starts reading w's state.
func preloadState(ctx context.Context, w *workspace) *statePreload {
	p := &statePreload{crypter: newLateCrypter(), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.snap, p.version, p.err = state.LoadVersion(ctx, w.backend, w.stack, state.OpenOptions{
			Crypter: p.crypter, Verify: true, Warn: func(msg string) { p.warns = append(p.warns, msg) },
		})
	}()
	return p
}

// errPreloadAbandoned ends a preload whose command failed before it
// opened the stack's secrets.
var errPreloadAbandoned = errors.New("the command stopped before it opened the stack's secrets")

// abandon ends a preload that will not be taken: a secret it meets fails
// at once instead of waiting for a crypter that never comes.
func (p *statePreload) abandon() { p.crypter.set(nil, errPreloadAbandoned) }

// take gives the preload the stack's crypter, waits for it and returns
// what it read, showing its warnings as loadVersioned would have. A stack
// the preload found empty is read again: opening the secrets may have
// just created it.
func (p *statePreload) take(ctx context.Context, w *workspace, c state.Crypter) (*state.Snapshot, state.Version, error) {
	p.crypter.set(c, nil)
	<-p.done
	for _, msg := range p.warns {
		w.warnState(msg)
	}
	if p.err == nil && len(p.snap.Resources) == 0 {
		return w.loadVersioned(ctx, c)
	}
	return p.snap, p.version, p.err
}

// lateCrypter is a state.Crypter whose real crypter comes later: Seal
// and Open wait for set.
type lateCrypter struct {
	ready chan struct{}
	once  sync.Once
	c     state.Crypter
	err   error
}

var _ state.Crypter = (*lateCrypter)(nil)

func newLateCrypter() *lateCrypter { return &lateCrypter{ready: make(chan struct{})} }

// set gives the crypter, or the error every call fails with; only the
// first call counts.
func (l *lateCrypter) set(c state.Crypter, err error) {
	l.once.Do(func() {
		l.c, l.err = c, err
		if c == nil && err == nil {
			l.err = errors.New("the stack has no secrets crypter")
		}
		close(l.ready)
	})
}

func (l *lateCrypter) Seal(plaintext []byte) (string, error) {
	<-l.ready
	if l.err != nil {
		return "", l.err
	}
	return l.c.Seal(plaintext)
}

func (l *lateCrypter) Open(ciphertext string) ([]byte, error) {
	<-l.ready
	if l.err != nil {
		return nil, l.err
	}
	return l.c.Open(ciphertext)
}
