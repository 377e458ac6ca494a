package state

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Rollbacks and truncations. A snapshot copied back from an older copy, a
// journal cut at a record boundary, or a stack's files deleted together
// all read as a valid state that is merely older: plinth would plan to
// create again what exists. So the state carries a Mark (lineage, serial,
// sequence), and every session records the mark it reaches where rolling
// the state back does not roll it back too: in the update history (the
// start and end of each operation) and, after every journal append, in
// the backend's MarkStore or, lacking one, as a history record. Every
// load compares the state's mark with the newest recorded one and refuses
// a state that is older (*RollbackError).

// Mark says how far a stack's state has come.
type Mark struct {
	// Lineage is made at random when the stack's state is first written
	// and kept by every later write: a state of another lineage is not
	// this stack's.
	Lineage string `json:"lineage,omitempty"`
	// Serial counts the snapshots written: every write takes a serial
	// above the state's and the history's.
	Serial uint64 `json:"serial"`
	// Seq is the sequence number of the last journal entry the state
	// holds.
	Seq uint64 `json:"seq"`
}

// String renders m for messages: "serial 4, sequence 17".
func (m Mark) String() string { return fmt.Sprintf("serial %d, sequence %d", m.Serial, m.Seq) }

// before reports whether a state at m lacks what a state at o holds. A
// state without a lineage (written before marks existed, or never
// written) is compared by its sequence number alone.
func (m Mark) before(o Mark) bool {
	if m.Lineage == "" || m.Serial == o.Serial {
		return m.Seq < o.Seq
	}
	return m.Serial < o.Serial
}

func newLineage() string {
	var id [16]byte
	_, _ = rand.Read(id[:])
	return hex.EncodeToString(id[:])
}

// MarkStore is implemented by backends that keep each stack's newest Mark
// apart from its snapshot and journal, more cheaply than a history record:
// the session writes it after every journal append. WriteMark need not be
// durable when it returns; a mark lost in a crash only lags, which weakens
// the check and never fails it. Backends without one get a history record
// per append instead.
type MarkStore interface {
	ReadMark(ctx context.Context, stack string) ([]byte, error)
	WriteMark(ctx context.Context, stack string, data []byte) error
}

// HistoryTailReader is implemented by history stores that can read their
// last records without reading them all.
type HistoryTailReader interface {
	// ReadHistoryTail returns the stack's last history records in order:
	// at least the last one if there is any, possibly all.
	ReadHistoryTail(ctx context.Context, stack string) ([][]byte, error)
}

// recordedMark is a mark found in a history record or a MarkStore, with
// what recorded it, for messages.
type recordedMark struct {
	Mark Mark
	// By describes the record: "the history record of update at T", or
	// "the mark written after the last journal append".
	By string
	ok bool
}

// markRecord is the JSON of a history record that carries a mark: an
// Operation's fields as far as they matter here, or a mark alone (no
// kind).
type markRecord struct {
	Kind    string    `json:"kind,omitempty"`
	Started time.Time `json:"started,omitzero"`
	State   *Mark     `json:"state,omitempty"`
	Time    time.Time `json:"time,omitzero"`
}

// expectedMark returns the newest mark recorded for the stack outside its
// state: the MarkStore's, or the last history record carrying one. It
// reads the history's tail when the backend can; only a history without
// any mark (a stack no session of this plinth has written) is read whole.
func expectedMark(ctx context.Context, b Backend, stack string) recordedMark {
	var best recordedMark
	if ms, ok := b.(MarkStore); ok {
		if data, err := ms.ReadMark(ctx, stack); err == nil {
			var r markRecord
			if json.Unmarshal(data, &r) == nil && r.State != nil {
				best = recordedMark{Mark: *r.State, By: "the mark written " + when(r.Time) + " after a journal write", ok: true}
			}
		}
	}
	if h := historyMark(ctx, b, stack); h.ok && (!best.ok || !h.Mark.before(best.Mark)) {
		best = h
	}
	return best
}

func when(t time.Time) string {
	if t.IsZero() {
		return "by plinth"
	}
	return "at " + t.UTC().Format(time.RFC3339)
}

// historyMark returns the mark of the last history record carrying one.
func historyMark(ctx context.Context, b Backend, stack string) recordedMark {
	hs, ok := b.(HistoryStore)
	if !ok {
		return recordedMark{}
	}
	if tr, ok := b.(HistoryTailReader); ok {
		if recs, err := tr.ReadHistoryTail(ctx, stack); err == nil {
			if m := lastMark(recs); m.ok {
				return m
			}
		}
	}
	recs, err := hs.ReadHistory(ctx, stack)
	if err != nil {
		return recordedMark{}
	}
	return lastMark(recs)
}

func lastMark(recs [][]byte) recordedMark {
	for _, rec := range slices.Backward(recs) {
		var r markRecord
		if json.Unmarshal(rec, &r) != nil || r.State == nil {
			continue
		}
		by := "the update history's record of " + r.Kind + " " + when(r.Started)
		if r.Kind == "" {
			by = "the update history's mark written " + when(r.Time) + " after a journal write"
		}
		return recordedMark{Mark: *r.State, By: by, ok: true}
	}
	return recordedMark{}
}

// writeMark records m outside the state: in the backend's MarkStore, or
// as a history record. A failure only weakens later checks, so it is not
// reported.
func writeMark(ctx context.Context, b Backend, stack string, m Mark) {
	rec, err := json.Marshal(markRecord{State: &m, Time: time.Now().UTC()})
	if err != nil {
		return
	}
	if ms, ok := b.(MarkStore); ok {
		_ = ms.WriteMark(ctx, stack, rec)
		return
	}
	if hs, ok := b.(HistoryStore); ok {
		_ = hs.AppendHistory(ctx, stack, rec)
	}
}

// RollbackError reports a state older than what its history records: it
// was rolled back, truncated, deleted, or replaced by another stack's.
type RollbackError struct {
	Stack string
	// Where names the snapshot.
	Where string
	// State is the mark the state reaches; Absent is set when there is no
	// state at all.
	State  Mark
	Absent bool
	// Recorded is the newest mark recorded outside the state, and By what
	// recorded it.
	Recorded Mark
	By       string
	// Lost describes, where it can be told, what the history recorded
	// that the state lacks: operations, and resources (URN and ID) a
	// newer backup holds.
	Lost []string
	// Backup names the backup snapshot, "" if there is none.
	Backup string
}

func (e *RollbackError) Error() string {
	var s strings.Builder
	switch {
	case e.Absent:
		fmt.Fprintf(&s, "the state of stack %s is gone (%s, its backup and journal are missing) although %s records %s: it was deleted. ",
			e.Stack, e.Where, e.By, e.Recorded)
	case e.State.Lineage != "" && e.Recorded.Lineage != "" && e.State.Lineage != e.Recorded.Lineage:
		fmt.Fprintf(&s, "the state of stack %s (%s) has lineage %s, but %s records lineage %s (%s): it is another stack's state, copied over this one's. ",
			e.Stack, e.Where, e.State.Lineage, e.By, e.Recorded.Lineage, e.Recorded)
	default:
		fmt.Fprintf(&s, "the state of stack %s (%s and its journal) is at %s, but %s records %s: the state was rolled back (an older snapshot copied back) or its journal truncated. ",
			e.Stack, e.Where, e.State, e.By, e.Recorded)
	}
	s.WriteString("Planning from it would create again resources that exist. Nothing was changed.")
	if len(e.Lost) > 0 {
		s.WriteString(" Recorded since, and missing from the state:\n  " + strings.Join(e.Lost, "\n  ") + "\n")
	} else {
		s.WriteString(" ")
	}
	s.WriteString("To recover, put the newest state back: restore its files from a copy")
	if e.Backup != "" {
		fmt.Fprintf(&s, ", or run `plinth state restore-backup --stack %s` to make the backup %s current (it refuses a backup older than the history)", e.Stack, e.Backup)
	}
	fmt.Fprintf(&s, ". Or accept the loss with `plinth state accept-rollback --stack %s`, then bring back what the state lacks with `plinth import`.", e.Stack)
	return s.String()
}

// ErrRolledBack is matched (errors.Is) by a *RollbackError.
var ErrRolledBack = errors.New("the state is older than its history")

// Unwrap lets errors.Is(err, ErrRolledBack) match.
func (e *RollbackError) Unwrap() error { return ErrRolledBack }

// checkMark refuses a loaded state older than the mark recorded outside
// it (st.expected).
func checkMark(ctx context.Context, b Backend, stack string, c Crypter, st loaded) error {
	exp := st.expected
	if !exp.ok {
		return nil
	}
	m := st.mark()
	reached := m
	if st.torn {
		// The torn record, dropped with a warning, may be the one the
		// mark counts: a record damaged after it was written.
		reached.Seq++
	}
	if !olderThan(reached, st.absent, exp) {
		return nil
	}
	absent := st.absent && (exp.Mark.Serial > 0 || exp.Mark.Seq > 0)
	return &RollbackError{
		Stack: stack, Where: b.Describe(stack, PartSnapshot), State: m, Absent: absent,
		Recorded: exp.Mark, By: exp.By, Backup: backupOf(b, stack),
		Lost: lostSince(ctx, b, stack, c, m, st.snapshot),
	}
}

// lostSince describes what the history recorded after the state's mark:
// the operations whose marks are newer, and the resources (URN and ID)
// that a newer backup holds and the state lacks. Only a refused load
// comes here, so it may read the whole history.
func lostSince(ctx context.Context, b Backend, stack string, c Crypter, at Mark, snap *Snapshot) []string {
	var out []string
	if hs, ok := b.(HistoryStore); ok {
		recs, _ := hs.ReadHistory(ctx, stack)
		for _, rec := range recs {
			var op Operation
			if json.Unmarshal(rec, &op) != nil || op.Kind == "" || op.State == nil || op.Ended == nil || !at.before(*op.State) {
				continue
			}
			out = append(out, fmt.Sprintf("%s at %s (%s): %s", op.Kind, op.Started.UTC().Format(time.RFC3339), op.Result, describeSteps(op.Steps)))
		}
	}
	return append(out, newerInBackup(ctx, b, stack, c, at, snap)...)
}

func describeSteps(steps map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(steps)) {
		if k != "same" && steps[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, steps[k]))
		}
	}
	if len(parts) == 0 {
		return "no changes counted"
	}
	return strings.Join(parts, ", ")
}

// newerInBackup lists the resources of a backup newer than the state
// that the state lacks.
func newerInBackup(ctx context.Context, b Backend, stack string, c Crypter, at Mark, snap *Snapshot) []string {
	bs, ok := b.(BackupStore)
	if !ok {
		return nil
	}
	data, _, err := bs.ReadBackup(ctx, stack)
	if err != nil {
		return nil
	}
	d, err := decodeSnapshot(data, c, true)
	if err != nil || !at.before(d.mark()) {
		return nil
	}
	return missingFrom(snap, d.snap, "in the backup "+bs.DescribeBackup(stack))
}

// missingFrom lists the live resources of newer that have no live
// resource with the same URN in older, by URN and ID.
func missingFrom(older, newer *Snapshot, where string) []string {
	var out []string
	for _, r := range newer.Resources {
		if r.Delete || older.Find(r.URN) != nil {
			continue
		}
		out = append(out, describeResource(r)+" ("+where+")")
	}
	return out
}

func describeResource(r *Resource) string {
	if r.ID == "" {
		return string(r.URN)
	}
	return fmt.Sprintf("%s, ID %s", r.URN, r.ID)
}

// olderThan reports whether a state at m, absent or not, is older than
// the recorded mark exp, or of another lineage.
func olderThan(m Mark, absent bool, exp recordedMark) bool {
	if !exp.ok {
		return false
	}
	switch {
	case absent:
		return exp.Mark.Serial > 0 || exp.Mark.Seq > 0
	case m.Lineage != "" && exp.Mark.Lineage != "" && m.Lineage != exp.Mark.Lineage:
		return true
	}
	return m.before(exp.Mark)
}

// writeState makes snap the stack's state outside a session (restore,
// accept, import of a repaired file), at a serial above both the stored
// state's and the history's, so that later loads take it as current;
// records the new mark, and op, if given, in the history. The caller
// holds the lock.
func writeState(ctx context.Context, b Backend, stack string, snap *Snapshot, m Mark, c Crypter, op *Operation) (Mark, error) {
	exp := expectedMark(ctx, b, stack)
	m.Lineage = cmp.Or(m.Lineage, exp.Mark.Lineage, newLineage())
	m.Serial = max(m.Serial, exp.Mark.Serial, storedSerial(ctx, b, stack)) + 1
	data, err := encodeSnapshot(snap, m, c)
	if err == nil {
		err = b.WriteSnapshot(ctx, stack, data)
	}
	if err == nil {
		err = b.TruncateJournal(ctx, stack)
	}
	if err != nil {
		return Mark{}, err
	}
	writeMark(ctx, b, stack, m)
	if op != nil {
		end := op.finish(ResultSucceeded, nil)
		end.State = &m
		err = AppendOperation(ctx, b, stack, end)
	}
	return m, err
}

// storedSerial is the serial of the stored snapshot, 0 if it cannot be
// read: its serial is found without its secrets.
func storedSerial(ctx context.Context, b Backend, stack string) uint64 {
	data, err := b.ReadSnapshot(ctx, stack)
	if err != nil {
		return 0
	}
	var doc struct {
		Serial uint64 `json:"serial"`
	}
	_ = json.Unmarshal(data, &doc)
	return doc.Serial
}

// markWriter records a session's marks after its journal appends. A
// MarkStore's write is cheap and is done at once; a history record costs
// a round trip to a database, as much as the append itself, so it is
// written off the journal's path by a goroutine of its own, which writes
// the newest mark queued and drops older ones it has not reached. Such a
// mark lags the journal by at most the write in flight.
type markWriter struct {
	b     Backend
	stack string
	// async is set when marks go to the history.
	async bool
	mu    sync.Mutex
	next  *Mark
	wake  chan struct{}
	done  chan struct{}
}

func newMarkWriter(b Backend, stack string) *markWriter {
	_, store := b.(MarkStore)
	_, history := b.(HistoryStore)
	w := &markWriter{b: b, stack: stack, async: !store && history, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if w.async {
		go w.run()
	} else {
		close(w.done)
	}
	return w
}

// put records m, at once or soon.
func (w *markWriter) put(m Mark) {
	if !w.async {
		writeMark(context.Background(), w.b, w.stack, m)
		return
	}
	w.mu.Lock()
	w.next = &m
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default: // the goroutine is due to look already
	}
}

func (w *markWriter) run() {
	defer close(w.done)
	for {
		_, open := <-w.wake
		w.mu.Lock()
		m := w.next
		w.next = nil
		w.mu.Unlock()
		if m != nil {
			writeMark(context.Background(), w.b, w.stack, *m)
		}
		if !open {
			return
		}
	}
}

// stop writes the mark still queued and ends the goroutine. No put may
// follow.
func (w *markWriter) stop() {
	if w.async {
		close(w.wake)
	}
	<-w.done
}
