package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
)

// Load reads a stack's state without locking or writing anything: the
// snapshot with any journal replayed onto it in memory. Preview and
// `state ls` use it. A stack never written reads as empty; a stack whose
// snapshot was written and is now missing is a *MissingSnapshotError.
func Load(ctx context.Context, b Backend, stack string, opts OpenOptions) (*Snapshot, error) {
	if err := ValidateStackName(stack); err != nil {
		return nil, err
	}
	st, err := load(ctx, b, stack, opts)
	if err != nil {
		return nil, err
	}
	return st.snapshot, nil
}

type loaded struct {
	snapshot *Snapshot
	seq      uint64
	replayed int
	// checksum is the stored snapshot's (see Version).
	checksum string
	// legacy is set when the snapshot has the old form without a
	// checksum, or no lineage, so that a session rewrites it at once.
	legacy bool
	// lineage and serial are the stored snapshot's (see Mark); absent is
	// set when there is neither snapshot nor journal.
	lineage string
	serial  uint64
	absent  bool
	// torn is set when the journal ended with a torn record, dropped
	// with a warning.
	torn bool
	// expected is the newest mark recorded outside the state.
	expected recordedMark
}

// mark is how far the loaded state has come.
func (st loaded) mark() Mark { return Mark{Lineage: st.lineage, Serial: st.serial, Seq: st.seq} }

// load reads the state and refuses one older than its history.
func load(ctx context.Context, b Backend, stack string, opts OpenOptions) (loaded, error) {
	st, err := loadUnchecked(ctx, b, stack, opts)
	if err != nil {
		return loaded{}, err
	}
	if err := checkMark(ctx, b, stack, opts.Crypter, st); err != nil {
		return loaded{}, err
	}
	return st, nil
}

// loadUnchecked reads the state, and the mark recorded outside it, without
// comparing them.
//
// The mark is read first: a command running meanwhile (a load takes no
// lock) writes its marks after the state they describe, so a mark read
// before the state never runs ahead of it.
func loadUnchecked(ctx context.Context, b Backend, stack string, opts OpenOptions) (loaded, error) {
	expected := expectedMark(ctx, b, stack)
	st, err := readSnapshot(ctx, b, stack, opts.Crypter)
	if err != nil {
		return loaded{}, err
	}
	if st, err = replayJournal(ctx, b, stack, opts, st); err != nil {
		return loaded{}, err
	}
	st.expected = expected
	if opts.Verify {
		if err := st.snapshot.Verify(); err != nil {
			return loaded{}, damaged(b, stack, b.Describe(stack, PartSnapshot), fmt.Errorf("it fails the integrity check: %w", err))
		}
	}
	return st, nil
}

func readSnapshot(ctx context.Context, b Backend, stack string, c Crypter) (loaded, error) {
	data, release, err := lendSnapshot(ctx, b, stack)
	defer release()
	switch {
	case errors.Is(err, ErrSnapshotLost):
		return loaded{}, missing(b, stack)
	case errors.Is(err, fs.ErrNotExist):
		return loaded{snapshot: &Snapshot{}, absent: true}, nil
	case err != nil:
		return loaded{}, fmt.Errorf("reading the state of stack %s: %w", stack, err)
	}
	d, err := decodeSnapshot(data, c, true)
	if err != nil {
		return loaded{}, readError(b, stack, b.Describe(stack, PartSnapshot), err)
	}
	return loaded{snapshot: d.snap, seq: d.seq, lineage: d.lineage, serial: d.serial,
		legacy: d.legacy || d.lineage == "", checksum: storedChecksum(data)}, nil
}

// replayJournal applies the journal's entries newer than st.seq to the
// snapshot. An entry at or below st.seq is already in the snapshot: a run
// compacted and then stopped before it emptied the journal.
func replayJournal(ctx context.Context, b Backend, stack string, opts OpenOptions, st loaded) (loaded, error) {
	j, err := b.ReadJournal(ctx, stack)
	where := b.Describe(stack, PartJournal)
	if err != nil {
		return loaded{}, damaged(b, stack, where, err)
	}
	if j.Torn != nil && opts.Warn != nil {
		opts.Warn(fmt.Sprintf("The journal %s %s", where, describeTorn(j.Torn)))
	}
	st.torn = j.Torn != nil
	if len(j.Records) == 0 {
		return st, nil
	}
	st.absent = false
	live, base := NewLive(st.snapshot), st.seq
	for i, rec := range j.Records {
		e, err := DecodeEntry(rec, opts.Crypter)
		if err != nil {
			return loaded{}, readError(b, stack, where, fmt.Errorf("record %d: %w", i+1, err))
		}
		if e.Seq <= base {
			continue
		}
		if e.Seq != st.seq+1 {
			return loaded{}, damaged(b, stack, where, fmt.Errorf("record %d has sequence number %d where %d belongs: entries are missing", i+1, e.Seq, st.seq+1))
		}
		if err := live.Apply(e); err != nil {
			return loaded{}, damaged(b, stack, where, fmt.Errorf("record %d does not fit the snapshot: %w", i+1, err))
		}
		st.seq = e.Seq
		st.replayed++
	}
	st.snapshot = live.Snapshot()
	return st, nil
}

// tornFields pick what a torn record was about out of its partial JSON.
var (
	tornKind = regexp.MustCompile(`"kind":"([a-z]+)"`)
	tornOp   = regexp.MustCompile(`"op":"([a-z]+)"`)
	tornURN  = regexp.MustCompile(`"urn":"([^"]+)"`)
	tornID   = regexp.MustCompile(`"id":"([^"]+)"`)
)

// describeTorn says what a torn journal tail was and what dropping it
// loses, for a warning.
func describeTorn(t *TornTail) string {
	s := fmt.Sprintf("ends with %d bytes at byte offset %d that do not form a whole record (record %d): "+
		"a write cut short by a crash, or damage. They were dropped.", t.Bytes, t.Offset, t.Record)
	what := ""
	if m := tornKind.FindSubmatch(t.Data); m != nil {
		what = "the " + string(m[1])
		if m := tornOp.FindSubmatch(t.Data); m != nil {
			what += " of a " + string(m[1])
		}
		if m := tornURN.FindSubmatch(t.Data); m != nil {
			what += " of " + string(m[1])
		}
	}
	if what != "" {
		s += " The record appears to hold " + what + "."
	}
	return s + " A step is recorded before it goes on, so a step whose end was lost shows as pending; " +
		"`plinth state pending` lists what to check."
}

// readError reports why stored data could not be decoded: a secret
// without the right key, or damage.
func readError(b Backend, stack, where string, err error) error {
	if errors.Is(err, ErrCannotDecrypt) {
		return fmt.Errorf("reading %s: %w; open the stack with its secrets key (for a passphrase, set PLINTH_PASSPHRASE)", where, err)
	}
	return damaged(b, stack, where, err)
}

// DamagedError reports stored state that cannot be read.
type DamagedError struct {
	// Where names the file or table, as the backend describes it.
	Where string
	Err   error
	// Backup names a copy of the previous state, if the backend keeps one.
	Backup string
	// Stack is the stack's name, for the commands the message suggests.
	Stack string
}

func (e *DamagedError) Error() string {
	restore := ""
	if e.Backup != "" {
		restore = fmt.Sprintf(" The previous state is kept at %s: `plinth state restore-backup --stack %s` makes it current (changes made since it was written are lost from the record).", e.Backup, e.Stack)
	}
	return fmt.Sprintf("%s is damaged: %v. Nothing was changed. "+
		"To recover, save everything that can still be read with `plinth state export --force --stack %s --file salvaged.json` "+
		"(it says what it had to drop), check the file, and load it with `plinth state import --stack %s --file salvaged.json`.%s",
		e.Where, e.Err, e.Stack, e.Stack, restore)
}

// damaged builds a DamagedError, naming the backend's backup if it has one.
func damaged(b Backend, stack, where string, err error) *DamagedError {
	return &DamagedError{Where: where, Err: err, Stack: stack, Backup: backupOf(b, stack)}
}

func backupOf(b Backend, stack string) string {
	if bs, ok := b.(BackupStore); ok {
		return bs.DescribeBackup(stack)
	}
	return ""
}

func (e *DamagedError) Unwrap() error { return e.Err }

// MissingSnapshotError reports a stack whose snapshot was written once and
// is now missing. Reading it as empty would make the next update create
// every resource again, so every command refuses.
type MissingSnapshotError struct {
	Stack string
	// Where names the missing snapshot; Backup the previous one kept by
	// the backend, "" if there is none.
	Where, Backup string
}

func (e *MissingSnapshotError) Error() string {
	s := fmt.Sprintf("the state of stack %s is missing: %s was written before and is gone, so plinth no longer knows which resources the stack manages. Nothing was changed.", e.Stack, e.Where)
	if e.Backup != "" {
		return s + fmt.Sprintf(" The previous state is kept at %s: run `plinth state restore-backup --stack %s` to make it current, then `plinth refresh` to bring it up to date.", e.Backup, e.Stack)
	}
	return s + fmt.Sprintf(" Restore %s from a copy, or load a saved export with `plinth state import --stack %s --file FILE`.", e.Where, e.Stack)
}

// Unwrap lets errors.Is(err, ErrSnapshotLost) match.
func (e *MissingSnapshotError) Unwrap() error { return ErrSnapshotLost }

func missing(b Backend, stack string) *MissingSnapshotError {
	return &MissingSnapshotError{Stack: stack, Where: b.Describe(stack, PartSnapshot), Backup: backupOf(b, stack)}
}

// lendSnapshot reads the stack's snapshot through MapSnapshot if the
// backend has it, else ReadSnapshot. release gives the bytes back.
func lendSnapshot(ctx context.Context, b Backend, stack string) (data []byte, release func(), err error) {
	if m, ok := b.(SnapshotMapper); ok {
		data, release, err = m.MapSnapshot(ctx, stack)
		if release == nil {
			release = func() {}
		}
		return data, release, err
	}
	data, err = b.ReadSnapshot(ctx, stack)
	return data, func() {}, err
}
