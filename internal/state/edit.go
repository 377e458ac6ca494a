package state

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Direct edits of a stack's state, outside an engine operation (the
// `plinth state` commands). Each is recorded through the session's journal
// like any step, and saved by Close.

// RemoveResource forgets the live resource with the URN without deleting
// it from the world (`plinth state rm`). It refuses while other resources
// refer to it: they must be removed first.
func (s *Session) RemoveResource(ctx context.Context, urn resource.URN) error {
	s.mu.Lock()
	r := s.live.Get(urn)
	var users []string
	if r != nil {
		users = s.referrers(urn)
	}
	s.mu.Unlock()
	if r == nil {
		return fmt.Errorf("stack %s has no resource %s", s.stack, urn)
	}
	if len(users) > 0 {
		return fmt.Errorf("cannot remove %s from stack %s: %s refer to it; remove them first", urn, s.stack, strings.Join(users, ", "))
	}
	return s.Record(ctx, &Entry{Kind: Write, Op: OpRemove, Old: r, Time: time.Now()})
}

// referrers returns the URNs of live resources that refer to urn.
func (s *Session) referrers(urn resource.URN) []string {
	var out []string
	for _, n := range s.live.nodes {
		if n.removed || n.res.URN == urn {
			continue
		}
		for _, u := range n.res.References() {
			if slices.Contains(URNKeys(urn), u) {
				out = append(out, string(n.res.URN))
				break
			}
		}
	}
	return out
}

// ResolvePending settles the pending operations on a URN (`plinth state
// pending`). With id empty they are dropped: the person checked that the
// interrupted step changed nothing. With an id, the interrupted create or
// replace is known to have made a resource with that ID, which is added to
// state (a replaced resource is then marked for deletion, as if the
// replacement had finished).
func (s *Session) ResolvePending(ctx context.Context, urn resource.URN, id string) error {
	p, ok := s.findPending(urn)
	if !ok {
		return fmt.Errorf("stack %s has no pending operation on %s", s.stack, urn)
	}
	if id != "" && p.Op != OpCreate && p.Op != OpReplace {
		return fmt.Errorf("the pending operation on %s is a %s; only a create or replace can be given an ID", urn, p.Op)
	}
	now := time.Now()
	if err := s.Record(ctx, &Entry{Kind: Write, Op: OpResolve, New: p.Resource, Time: now}); err != nil {
		return err
	}
	if id == "" {
		return nil
	}
	r := p.Resource.Clone()
	r.ID, r.Delete = id, false
	if r.Outputs == nil {
		// Nothing was read yet: the inputs are the best account of the
		// resource until a refresh reads it.
		r.Outputs = r.Inputs.Copy()
	}
	if p.Op == OpReplace {
		if old := s.liveResource(urn); old != nil {
			return s.Record(ctx, &Entry{Kind: Write, Op: OpReplace, Old: old, New: r, Time: now})
		}
	}
	return s.Record(ctx, &Entry{Kind: Write, Op: OpImport, New: r, Time: now})
}

func (s *Session) findPending(urn resource.URN) (PendingOperation, bool) {
	for _, p := range s.Pending() {
		if p.Resource != nil && p.Resource.URN == urn {
			return p, true
		}
	}
	return PendingOperation{}, false
}

func (s *Session) liveResource(urn resource.URN) *Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Get(urn)
}

// ReplaceSnapshot makes snap the stack's whole state (`plinth state
// import`) and saves it at once. The snapshot must pass Verify. Nothing
// else may be recording in the session meanwhile.
func (s *Session) ReplaceSnapshot(ctx context.Context, snap *Snapshot) error {
	if err := snap.Verify(); err != nil {
		return fmt.Errorf("the imported state of stack %s fails the integrity check, so it was not imported: %w", s.stack, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if len(s.live.inflight) > 0 || len(s.queue.records) > 0 {
		return fmt.Errorf("cannot import state into stack %s while steps are being recorded", s.stack)
	}
	s.live = NewLive(snap)
	return s.compact(ctx, snap)
}

// SetProtect sets or clears the protect option recorded for the live
// resource with the URN (`plinth state unprotect`), so that a protected
// resource already removed from the program can be deleted. The program
// sets protect again on the next update if it still asks for it.
func (s *Session) SetProtect(ctx context.Context, urn resource.URN, protect bool) error {
	r := s.liveResource(urn)
	if r == nil {
		return fmt.Errorf("stack %s has no resource %s", s.stack, urn)
	}
	if r.Protect == protect {
		return nil
	}
	n := r.Clone()
	n.Protect = protect
	return s.Record(ctx, &Entry{Kind: Write, Op: OpSame, Old: r, New: n, Time: time.Now()})
}

// Reseal makes c the session's Crypter and saves the state at once, every
// secret sealed with c (`plinth stack change-secrets-provider`). c must
// open what the old Crypter sealed until the save is done: a crash before
// it leaves the old snapshot. Nothing else may be recording meanwhile.
func (s *Session) Reseal(ctx context.Context, c Crypter) error {
	s.mu.Lock()
	if s.closed || len(s.live.inflight) > 0 || len(s.queue.records) > 0 {
		s.mu.Unlock()
		return fmt.Errorf("cannot re-seal the state of stack %s while steps are being recorded", s.stack)
	}
	s.crypter = c
	snap := s.live.Snapshot()
	s.mu.Unlock()
	return s.compact(ctx, snap)
}

// SetTainted marks or clears the taint of the live resource with the URN
// (`plinth state taint|untaint`): a tainted resource is replaced by the
// next update.
func (s *Session) SetTainted(ctx context.Context, urn resource.URN, tainted bool) error {
	r := s.liveResource(urn)
	if r == nil {
		return fmt.Errorf("stack %s has no resource %s", s.stack, urn)
	}
	if r.Tainted == tainted {
		return nil
	}
	n := r.Clone()
	n.Tainted = tainted
	return s.Record(ctx, &Entry{Kind: Write, Op: OpSame, Old: r, New: n, Time: time.Now()})
}

// Rename moves the live resource with the URN to a new URN (`plinth
// state mv`), repointing every reference to it, in one journaled write.
// It refuses when the new URN is taken.
func (s *Session) Rename(ctx context.Context, from, to resource.URN) error {
	r := s.liveResource(from)
	if r == nil {
		return fmt.Errorf("stack %s has no resource %s", s.stack, from)
	}
	if s.liveResource(to) != nil {
		return fmt.Errorf("stack %s already records %s; remove it first (`plinth state rm`) or choose another name", s.stack, to)
	}
	n := r.Clone()
	n.URN = to
	return s.Record(ctx, &Entry{Kind: Write, Op: OpRename, Old: r, New: n, Time: time.Now()})
}
