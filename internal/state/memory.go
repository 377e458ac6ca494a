package state

import (
	"context"
	"fmt"
	"sync"
)

// MemoryJournal is a journal held in memory, for tests of the engine. It
// applies each entry to a Live at once, keeps every entry it accepted, and
// can check the state's integrity after every record. A test simulates a
// crash with ReplayPrefix: the state a new process would see after only the
// first n entries reached disk.
//
// It is safe for concurrent use; Record serialises applies. It ignores the
// context: an entry that is recorded is never abandoned half-way.
type MemoryJournal struct {
	mu      sync.Mutex
	base    *Snapshot
	live    *Live
	entries []*Entry
	seq     uint64

	verify   bool
	reporter Reporter
	fail     func(*Entry) error
	crypter  Crypter
}

// Reporter receives integrity failures; *testing.T and *testing.B satisfy it.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// MemoryOption configures a MemoryJournal.
type MemoryOption func(*MemoryJournal)

// VerifyEach makes every Record run Snapshot().Verify() on the state after
// the entry is applied. A broken state fails the Record and, if r is not
// nil, is reported to r (so the test fails even if the engine swallows the
// error). Verify costs O(resources) per record: keep such tests small.
func VerifyEach(r Reporter) MemoryOption {
	return func(j *MemoryJournal) { j.verify, j.reporter = true, r }
}

// FailRecord makes Record call f before it accepts an entry; if f returns
// an error, Record returns it and records nothing. Tests use it to simulate
// a journal that cannot write (a full disk, a lost database).
func FailRecord(f func(*Entry) error) MemoryOption {
	return func(j *MemoryJournal) { j.fail = f }
}

// WithCrypter makes Record seal secrets with c when it checks that an
// entry can be stored. By default a stand-in that does not encrypt is
// used: nothing a MemoryJournal holds reaches storage.
func WithCrypter(c Crypter) MemoryOption {
	return func(j *MemoryJournal) { j.crypter = c }
}

// NewMemoryJournal returns a journal whose state starts as base (nil means
// an empty stack). Base is shared, not copied, and must not be modified.
func NewMemoryJournal(base *Snapshot, opts ...MemoryOption) *MemoryJournal {
	if base == nil {
		base = &Snapshot{}
	}
	j := &MemoryJournal{base: base, live: NewLive(base), crypter: plainCrypter{}}
	for _, o := range opts {
		o(j)
	}
	return j
}

// Record assigns e.Seq, applies e to the live state and keeps a copy of it.
// Like a Session, it rejects an entry that could not be stored (one holding
// an unknown value) or that the state rejects: that is an error and the
// entry is not kept. With VerifyEach,
// an entry after which the state fails verification is kept (it was
// applied) and the error is returned.
func (j *MemoryJournal) Record(_ context.Context, e *Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.fail != nil {
		if err := j.fail(e); err != nil {
			return err
		}
	}
	if _, err := encodeEntryBody(e, j.crypter, 0); err != nil {
		return fmt.Errorf("recording %s %s: %w", e.Kind, e.Op, err)
	}
	c := *e
	c.Seq = j.seq + 1
	if err := j.live.Apply(&c); err != nil {
		return fmt.Errorf("recording %s %s: %w", c.Kind, c.Op, err)
	}
	j.seq = c.Seq
	e.Seq = c.Seq
	j.entries = append(j.entries, &c)
	if j.verify {
		return j.check(&c)
	}
	return nil
}

func (j *MemoryJournal) check(e *Entry) error {
	err := j.live.Snapshot().Verify()
	if err == nil {
		return nil
	}
	err = fmt.Errorf("state integrity broken after journal entry %d (%s %s of %s): %w", e.Seq, e.Kind, e.Op, entryURN(e), err)
	if j.reporter != nil {
		j.reporter.Helper()
		j.reporter.Errorf("%v", err)
	}
	return err
}

// entryURN names the resource an entry is about, for messages.
func entryURN(e *Entry) string {
	switch {
	case e.New != nil:
		return string(e.New.URN)
	case e.Old != nil:
		return string(e.Old.URN)
	}
	return "the stack"
}

// Base returns the snapshot the journal started from.
func (j *MemoryJournal) Base() *Snapshot { return j.base }

// Snapshot returns the current state, as Close would compact it.
func (j *MemoryJournal) Snapshot() *Snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.live.Snapshot()
}

// Pending returns the pending operations now: those in the base snapshot
// not yet resolved, plus the steps that began and have not ended.
func (j *MemoryJournal) Pending() []PendingOperation {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.live.Pending()
}

// Entries returns the entries recorded so far, in order. The entries are
// the journal's copies and must not be modified.
func (j *MemoryJournal) Entries() []*Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]*Entry(nil), j.entries...)
}

// ReplayPrefix returns the Live a new process would build after a crash in
// which only the first n recorded entries reached the journal: the base
// snapshot with those entries applied. Steps that began within the prefix
// and did not end in it are pending operations of the result.
func (j *MemoryJournal) ReplayPrefix(n int) (*Live, error) {
	entries := j.Entries()
	if n < 0 || n > len(entries) {
		return nil, fmt.Errorf("replay prefix %d: the journal holds %d entries", n, len(entries))
	}
	return Replay(j.base, entries[:n])
}

// Replay applies entries, in order, to a Live built from base.
func Replay(base *Snapshot, entries []*Entry) (*Live, error) {
	l := NewLive(base)
	for _, e := range entries {
		if err := l.Apply(e); err != nil {
			return nil, fmt.Errorf("replaying the journal: %w", err)
		}
	}
	return l, nil
}

// plainCrypter stands in for a real one where nothing is stored.
type plainCrypter struct{}

func (plainCrypter) Seal(p []byte) (string, error) { return string(p), nil }
func (plainCrypter) Open(c string) ([]byte, error) { return []byte(c), nil }
