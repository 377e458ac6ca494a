package state

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Session is one process's exclusive hold on a stack for an operation. Open
// takes the stack's lock and loads its state, recovering from a crashed run
// if the journal is not empty. The engine then records every step with
// Record (Session is the engine's Journal), and Close compacts the result
// into a new snapshot and releases the lock.
//
// Records are durable when Record returns. Concurrent Records share writes:
// one writer goroutine appends whatever is queued and syncs once, then
// wakes everyone whose entry that sync covered (group commit), so the cost
// of a sync is spread over all the steps running at once.
type Session struct {
	backend Backend
	stack   string
	crypter Crypter
	lock    Unlocker
	base    *Snapshot
	baseSeq uint64
	// version is the state's version when the session opened; checksum
	// the checksum of the snapshot written last.
	version  Version
	checksum string
	// recovered counts the journal entries of a crashed run replayed at Open.
	recovered int
	// lineage is the state's (see Mark); serial that of the snapshot
	// written last, and floor the highest serial the state or its
	// history has reached: the next snapshot takes floor+1.
	lineage string
	serial  atomic.Uint64
	floor   uint64
	// op is the history entry of the operation, nil if none is kept. It
	// is recorded as started with the first Record, and as ended by
	// Close once Finish has given its result and steps.
	op       *Operation
	opStart  sync.Once
	finished bool
	result   string
	steps    map[string]int

	mu     sync.Mutex
	live   *Live
	seq    uint64
	queue  *batch
	closed bool
	failed error
	// stopping is set once the backend reports ErrInterrupted: no new
	// step may begin.
	stopping error

	wake       chan struct{}
	writerDone chan struct{}
	// marks records the mark after each append (see markWriter).
	marks *markWriter
	// entrySize is the size of the entry encoded last, the guess at the
	// next one's (see encodeEntryBody).
	entrySize atomic.Int64
}

// batch is a group of records written with one append.
type batch struct {
	records [][]byte
	// begins are the steps whose Begin is in the batch: if the append
	// fails, those steps are withdrawn, since their providers will not be
	// called.
	begins []uint64
	// last is the sequence number of the batch's last record.
	last uint64
	done chan struct{}
	err  error
}

func newBatch() *batch { return &batch{done: make(chan struct{})} }

// OpenOptions configure Open and Load.
type OpenOptions struct {
	// Crypter seals and opens secret values; nil means the stack holds no
	// secrets (storing or reading one is then an error).
	Crypter Crypter
	// Command is what the session is for, recorded in the lock so that
	// others can see it, e.g. "plinth up".
	Command string
	// Verify checks the loaded state's integrity and refuses to open a
	// stack that fails.
	Verify bool
	// Warn, if set, is told of damage that loading worked around, in a
	// sentence for people: a journal whose last record was torn and
	// dropped. Without it the torn record is dropped without a word, as
	// after a crash it must be.
	Warn func(string)
	// History, if set, is recorded in the stack's history when the
	// session opens, and again with its end when it closes (see Finish).
	History *Operation
	// LockWait says how long Open waits for a lock another holds; the
	// zero value fails at once (see TakeLock).
	LockWait LockWait
}

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("the state session is closed")

var _ interface {
	Record(context.Context, *Entry) error
} = (*Session)(nil)

// Open locks the stack and loads its state. If the journal holds entries
// (a previous run stopped without closing), they are replayed onto the
// snapshot, steps that began and never ended become pending operations,
// and the result is compacted at once, so the new operation starts with an
// empty journal.
func Open(ctx context.Context, b Backend, stack string, opts OpenOptions) (*Session, error) {
	if err := ValidateStackName(stack); err != nil {
		return nil, err
	}
	lock, err := TakeLock(ctx, b, stack, CurrentProcess(opts.Command), opts.LockWait)
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, b, stack, lock, opts)
	if err != nil {
		return nil, errors.Join(err, lock.Unlock(ctx))
	}
	s.op = opts.History
	s.marks = newMarkWriter(b, stack)
	go s.write()
	return s, nil
}

// Finish sets what the history records of the operation when the
// session closes: its result and the resources per step kind. An
// operation never finished (refused before it ran, or a declined
// confirmation) is not in the history, unless it recorded something.
func (s *Session) Finish(result string, steps map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished, s.result, s.steps = true, result, steps
}

// startOperation records the operation as started in the history, once:
// if the process dies, the history shows it unfinished. A failure is
// left to the journal's own write to report.
func (s *Session) startOperation() {
	if s.op != nil {
		s.opStart.Do(func() {
			m := s.markAt(s.baseSeq)
			s.op.State = &m
			_ = AppendOperation(context.Background(), s.backend, s.stack, s.op)
		})
	}
}

func open(ctx context.Context, b Backend, stack string, lock Unlocker, opts OpenOptions) (*Session, error) {
	st, err := load(ctx, b, stack, opts)
	if err != nil {
		return nil, err
	}
	s := &Session{
		backend: b, stack: stack, crypter: opts.Crypter, lock: lock,
		base: st.snapshot, baseSeq: st.seq, recovered: st.replayed,
		live: NewLive(st.snapshot), seq: st.seq, queue: newBatch(),
		wake: make(chan struct{}, 1), writerDone: make(chan struct{}),
		version: Version{Seq: st.seq, Checksum: st.checksum},
		lineage: cmp.Or(st.lineage, st.expected.Mark.Lineage, newLineage()),
		floor:   max(st.serial, st.expected.Mark.Serial),
	}
	s.serial.Store(st.serial)
	if st.replayed > 0 || st.legacy {
		// Save what was recovered, or the snapshot in its current form
		// (with a checksum), at once.
		if err := s.compact(ctx, st.snapshot); err != nil {
			return nil, fmt.Errorf("saving the state recovered from the journal of stack %s: %w", stack, err)
		}
		s.version.Checksum = s.checksum
		return s, nil
	}
	// The journal may still hold a torn record, or entries the snapshot
	// already covers; new records must not follow them.
	if err := b.TruncateJournal(ctx, stack); err != nil {
		return nil, fmt.Errorf("emptying the journal of stack %s (%s): %w", stack, b.Describe(stack, PartJournal), err)
	}
	return s, nil
}

// Stack returns the stack's name.
func (s *Session) Stack() string { return s.stack }

// Base returns the state as it was when the session opened (after any
// recovery): what the operation starts from. It must not be modified.
func (s *Session) Base() *Snapshot { return s.base }

// Recovered returns how many journal entries of an interrupted run Open
// replayed; zero when the last run closed cleanly.
func (s *Session) Recovered() int { return s.recovered }

// Snapshot returns the state now, with everything recorded so far.
func (s *Session) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Snapshot()
}

// Pending returns the pending operations now.
func (s *Session) Pending() []PendingOperation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Pending()
}

// Record assigns e.Seq, applies e to the live state and returns once it is
// durable in the journal. An entry the state rejects (an update of a
// resource it does not hold, a value that cannot be stored) is an error
// and is not written. Record ignores ctx: a step that ran must be recorded
// even when the operation is being cancelled.
//
// If the journal cannot be written, Record fails and so does every later
// Record of the session; what was applied stays in memory (a Begin is
// withdrawn, since its provider will not be called) and Close still tries
// to save it.
func (s *Session) Record(_ context.Context, e *Entry) error {
	s.startOperation()
	body, err := encodeEntryBody(e, s.crypter, int(s.entrySize.Load()))
	if err != nil {
		return fmt.Errorf("journal of stack %s: %w", s.stack, err)
	}
	s.entrySize.Store(int64(body.size()))
	b, err := s.enqueue(e, body)
	if err != nil {
		return err
	}
	select {
	case s.wake <- struct{}{}:
	default: // the writer is already due to look at the queue
	}
	<-b.done
	return b.err
}

func (s *Session) enqueue(e *Entry, body entryBody) (*batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.failed != nil {
		return nil, fmt.Errorf("the journal of stack %s failed earlier, so nothing more can be recorded: %w", s.stack, s.failed)
	}
	if s.stopping != nil && e.Kind == Begin {
		return nil, s.stopError()
	}
	c := *e
	c.Seq = s.seq + 1
	if err := s.live.Apply(&c); err != nil {
		return nil, fmt.Errorf("journal of stack %s: %w", s.stack, err)
	}
	s.seq, e.Seq = c.Seq, c.Seq
	b := s.queue
	b.records = append(b.records, withSeq(body, c.Seq))
	b.last = c.Seq
	if c.Kind == Begin {
		b.begins = append(b.begins, c.Step)
	}
	return b, nil
}

// write is the writer goroutine: it appends each batch with one call to
// the backend until the session closes and the queue is empty.
func (s *Session) write() {
	defer close(s.writerDone)
	several := false
	for {
		if several {
			s.linger()
		}
		s.mu.Lock()
		b, closed, failed := s.queue, s.closed, s.failed
		empty := len(b.records) == 0
		if !empty {
			s.queue = newBatch()
		}
		s.mu.Unlock()
		if empty {
			if closed {
				return
			}
			<-s.wake
			continue
		}
		err := failed
		if err == nil {
			err = s.backend.AppendJournal(context.Background(), s.stack, b.records)
		}
		// A batch of one record says no other step is recording
		// (steps running one at a time, or the last step of a run):
		// lingering would only delay the next.
		several = err == nil && len(b.records) > 1
		switch {
		case errors.Is(err, ErrInterrupted):
			s.stop(err) // the batch is stored
			s.marks.put(s.markAt(b.last))
		case err != nil:
			b.err = s.fail(b, err)
		default:
			s.marks.put(s.markAt(b.last))
		}
		close(b.done)
	}
}

// lingerStep and lingerMax bound linger's wait.
const (
	lingerStep = 100 * time.Microsecond
	lingerMax  = time.Millisecond
)

// linger lets the steps an append has just released queue their next
// records before the writer takes the queue: it waits while the queue
// keeps growing, lingerStep at a time, lingerMax at most. Without it the
// writer took the queue at once and appended about 15 to 23 records a
// sync with 32 steps in flight, and the syncs were a tenth of a large
// update's CPU. The writer lingers only after an append of several
// records, so that steps recorded one at a time are not delayed. A record is still reported stored only once the append
// that holds it returns; linger only delays that append.
func (s *Session) linger() {
	t := time.NewTimer(lingerStep)
	defer t.Stop()
	n := s.queued()
	for waited := time.Duration(0); waited < lingerMax; waited += lingerStep {
		select {
		case <-s.wake:
			continue
		case <-t.C:
		}
		m := s.queued()
		if m == n {
			return
		}
		n = m
		t.Reset(lingerStep)
	}
}

// queued is how many records wait for the writer.
func (s *Session) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue.records)
}

// stop makes the session refuse new steps.
func (s *Session) stop(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping == nil {
		s.stopping = err
	}
}

// stopError says why no new step may begin, what is recorded and what is
// pending. Called with s.mu held.
func (s *Session) stopError() error {
	inflight := "no step was in flight"
	if n := len(s.live.inflight); n > 0 {
		inflight = fmt.Sprintf("the %d steps in flight finish and are recorded", n)
	}
	return fmt.Errorf("stack %s: no new steps start, because %w. Everything done so far is recorded (%d journal entries); "+
		"%s. Run the command again to finish the job", s.stack, s.stopping, s.seq-s.baseSeq, inflight)
}

// fail marks the session failed and withdraws the batch's Begins.
func (s *Session) fail(b *batch, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed == nil {
		s.failed = err
	}
	for _, step := range b.begins {
		if _, ok := s.live.inflight[step]; ok {
			_ = s.live.Apply(&Entry{Kind: Fail, Step: step})
		}
	}
	return fmt.Errorf("writing the journal of stack %s (%s): %w. The %d entries written before are recorded; no new steps start, "+
		"and steps still in flight stay pending for the next command to recover from the journal", s.stack, s.backend.Describe(s.stack, PartJournal), err, s.seq-s.baseSeq-uint64(len(b.records)))
}

// Close waits for pending records, compacts the state into a new snapshot,
// empties the journal and releases the lock. It saves everything recorded,
// whether the operation succeeded or not. If it cannot save, the journal
// keeps what was durable and the next Open recovers it.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	<-s.writerDone
	s.marks.stop() // before a compaction's mark, which must come last
	if err := s.checkLock(ctx); err != nil {
		// Another command may own the stack now: leave its snapshot and
		// journal alone. What this one recorded stays in the journal.
		return err
	}
	var err error
	if s.seq != s.baseSeq {
		err = s.compact(ctx, s.live.Snapshot())
	}
	if result, steps, ok := s.outcome(); ok {
		end := s.op.finish(result, steps)
		m := s.markAt(s.baseSeq)
		end.State = &m
		err = errors.Join(err, AppendOperation(ctx, s.backend, s.stack, end))
	}
	return errors.Join(err, s.lock.Unlock(ctx))
}

// outcome is the result and step counts Close records, and whether it
// records any.
func (s *Session) outcome() (string, map[string]int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.op == nil || !s.finished {
		return "", nil, false
	}
	if s.failed != nil && s.result == ResultSucceeded {
		return ResultFailed, s.steps, true
	}
	return s.result, s.steps, true
}

// checkLock returns an error if the session's lock was broken.
func (s *Session) checkLock(ctx context.Context) error {
	lc, ok := s.lock.(LockChecker)
	if !ok {
		return nil
	}
	if err := lc.Check(ctx); err != nil {
		return fmt.Errorf("%w; this command did not save its state, so as not to overwrite theirs. "+
			"What it recorded is in the journal %s; run `plinth refresh` once no other command runs", err, s.backend.Describe(s.stack, PartJournal))
	}
	return nil
}

// compact writes snap as the stack's snapshot, covering the journal up to
// s.seq, then empties the journal: in one step on a Compactor, else one
// after the other. A crash between the two is harmless: replay skips
// entries the snapshot already covers.
func (s *Session) compact(ctx context.Context, snap *Snapshot) error {
	serial := s.floor + 1
	m := Mark{Lineage: s.lineage, Serial: serial, Seq: s.seq}
	if st, ok := s.backend.(SnapshotStreamer); ok && !isCompactor(s.backend) {
		return s.streamCompact(ctx, st, snap, m)
	}
	data, err := encodeSnapshot(snap, m, s.crypter)
	if err != nil {
		return fmt.Errorf("encoding the state of stack %s: %w", s.stack, err)
	}
	if c, ok := s.backend.(Compactor); ok {
		if err := c.Compact(ctx, s.stack, data); err != nil {
			return fmt.Errorf("writing the state of stack %s (%s): %w", s.stack, s.backend.Describe(s.stack, PartSnapshot), err)
		}
		s.compacted(ctx, serial, storedChecksum(data))
		return nil
	}
	if err := s.backend.WriteSnapshot(ctx, s.stack, data); err != nil {
		return fmt.Errorf("writing the state of stack %s (%s): %w", s.stack, s.backend.Describe(s.stack, PartSnapshot), err)
	}
	return s.truncated(ctx, serial, storedChecksum(data))
}

func isCompactor(b Backend) bool {
	_, ok := b.(Compactor)
	return ok
}

// streamCompact is compact on a backend that writes the snapshot as it
// is encoded.
func (s *Session) streamCompact(ctx context.Context, st SnapshotStreamer, snap *Snapshot, m Mark) error {
	var sum string
	var encErr error
	err := st.StreamSnapshot(ctx, s.stack, func(w io.Writer) (SnapshotPatch, error) {
		p, err := writeSnapshot(w, snap, m, s.crypter)
		encErr, sum = err, string(p.Data)
		return p, err
	})
	if encErr != nil {
		return fmt.Errorf("encoding the state of stack %s: %w", s.stack, encErr)
	}
	if err != nil {
		return fmt.Errorf("writing the state of stack %s (%s): %w", s.stack, s.backend.Describe(s.stack, PartSnapshot), err)
	}
	return s.truncated(ctx, m.Serial, sum)
}

// truncated empties the journal once a snapshot at serial, whose
// checksum is sum, is written.
func (s *Session) truncated(ctx context.Context, serial uint64, sum string) error {
	if err := s.backend.TruncateJournal(ctx, s.stack); err != nil {
		return fmt.Errorf("emptying the journal of stack %s (%s): %w", s.stack, s.backend.Describe(s.stack, PartJournal), err)
	}
	s.compacted(ctx, serial, sum)
	return nil
}

// compacted notes a snapshot written at serial, whose checksum is sum,
// and records its mark outside the state.
func (s *Session) compacted(ctx context.Context, serial uint64, sum string) {
	s.baseSeq, s.checksum, s.floor = s.seq, sum, serial
	s.serial.Store(serial)
	writeMark(ctx, s.backend, s.stack, s.markAt(s.seq))
}

// markAt is the state's mark once the journal holds the entries up to seq.
func (s *Session) markAt(seq uint64) Mark {
	return Mark{Lineage: s.lineage, Serial: s.serial.Load(), Seq: seq}
}
