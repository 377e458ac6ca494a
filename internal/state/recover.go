package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// Recovery from a lost or damaged state: restoring the backup snapshot
// (`plinth state restore-backup`), salvaging what can still be read
// (`plinth state export --force`), and reading a state file that was
// exported and perhaps repaired by hand (`plinth state import`).

// Restored says what RestoreBackup made current.
type Restored struct {
	// From names the backup; Written is when it was written.
	From    string
	Written time.Time
	// Resources counts the live resources of the restored state, and
	// Replayed the journal entries replayed onto it.
	Resources, Replayed int
	// Snapshot is the restored state.
	Snapshot *Snapshot
	// Forgotten lists, when a backup older than the history was restored
	// with Force, what the history or the state recorded that the backup
	// lacks: operations, and resources by URN and ID.
	Forgotten []string
	// Mark is the restored state's new mark.
	Mark Mark
}

// RestoreOptions configure RestoreBackup.
type RestoreOptions struct {
	Crypter Crypter
	// Force restores the backup even though the current snapshot reads
	// cleanly, or the backup is older than the history records (what the
	// newer state held is then forgotten; Restored.Forgotten lists it).
	Force bool
	// History, if set, is recorded in the stack's history as the
	// restore.
	History *Operation
}

// RestoreBackup makes the backend's backup snapshot the stack's current
// one, under the stack's lock, with one atomic snapshot write. It refuses
// when there is no backup, when the backup itself is damaged, and (unless
// opts.Force) when the current snapshot reads cleanly. Journal entries
// that follow the backup are replayed onto it; a journal that does not
// fit it is an error, and nothing is changed.
func RestoreBackup(ctx context.Context, b Backend, stack string, opts RestoreOptions) (Restored, error) {
	bs, ok := b.(BackupStore)
	if !ok {
		return Restored{}, fmt.Errorf("the state backend of stack %s keeps no backup snapshot", stack)
	}
	if err := ValidateStackName(stack); err != nil {
		return Restored{}, err
	}
	lock, err := b.Lock(ctx, stack, CurrentProcess("plinth state restore-backup"))
	if err != nil {
		return Restored{}, err
	}
	r, err := restore(ctx, b, bs, stack, opts)
	return r, errors.Join(err, lock.Unlock(ctx))
}

func restore(ctx context.Context, b Backend, bs BackupStore, stack string, opts RestoreOptions) (Restored, error) {
	data, written, err := bs.ReadBackup(ctx, stack)
	if errors.Is(err, fs.ErrNotExist) {
		return Restored{}, fmt.Errorf("stack %s has no backup snapshot, so there is nothing to restore", stack)
	}
	from := bs.DescribeBackup(stack)
	if err != nil {
		return Restored{}, fmt.Errorf("reading the backup %s: %w", from, err)
	}
	if err := currentUnusable(ctx, b, stack, opts); err != nil {
		return Restored{}, err
	}
	d, err := decodeSnapshot(data, opts.Crypter, true)
	if err != nil {
		return Restored{}, fmt.Errorf("the backup %s cannot be read either: %w; salvage what can be read with `plinth state export --force --stack %s`", from, err, stack)
	}
	st, err := replayJournal(ctx, b, stack, OpenOptions{Crypter: opts.Crypter}, loaded{snapshot: d.snap, seq: d.seq, lineage: d.lineage, serial: d.serial})
	if err != nil {
		return Restored{}, fmt.Errorf("the journal does not follow the backup %s, so restoring it would lose recorded steps (nothing was changed): %w", from, err)
	}
	if err := st.snapshot.Verify(); err != nil {
		return Restored{}, fmt.Errorf("the backup %s fails the integrity check (nothing was changed): %w", from, err)
	}
	forgotten, err := olderBackup(ctx, b, stack, from, st, opts)
	if err != nil {
		return Restored{}, err
	}
	m, err := writeState(ctx, b, stack, st.snapshot, st.mark(), opts.Crypter, opts.History)
	if err != nil {
		return Restored{}, fmt.Errorf("restoring %s: %w", from, err)
	}
	return Restored{From: from, Written: written, Resources: liveCount(st.snapshot), Replayed: st.replayed, Snapshot: st.snapshot,
		Forgotten: forgotten, Mark: m}, nil
}

// olderBackup refuses, unless opts.Force, a backup (with the journal
// replayed onto it: st) older than the history records, and says what
// restoring it forgets: the operations recorded after it, and the
// resources the current state holds that it lacks.
func olderBackup(ctx context.Context, b Backend, stack, from string, st loaded, opts RestoreOptions) ([]string, error) {
	exp := expectedMark(ctx, b, stack)
	if !olderThan(st.mark(), false, exp) {
		return nil, nil
	}
	lost := lostSince(ctx, b, stack, opts.Crypter, st.mark(), st.snapshot)
	if cur, err := readSnapshot(ctx, b, stack, opts.Crypter); err == nil {
		lost = append(lost, missingFrom(st.snapshot, cur.snapshot, "in the current state")...)
	}
	if opts.Force {
		return lost, nil
	}
	list := ""
	if len(lost) > 0 {
		list = " Restoring it would forget:\n  " + strings.Join(lost, "\n  ") + "\n"
	} else {
		list = " "
	}
	return nil, fmt.Errorf("the backup %s is at %s, but %s records %s: the backup is older than the update history, so it is not the newest state either. Nothing was changed.%s"+
		"Put the newest state back from a copy, or pass --force to restore the backup anyway and re-import what it lacks with `plinth import`",
		from, st.mark(), exp.By, exp.Mark, list)
}

// currentUnusable returns nil if the current state is missing or
// damaged (or opts.Force), and an error saying why restoring would lose
// data otherwise. It judges the state as every command loads it: the
// snapshot, the journal replayed onto it, and the integrity check.
func currentUnusable(ctx context.Context, b Backend, stack string, opts RestoreOptions) error {
	if opts.Force {
		return nil
	}
	st, err := load(ctx, b, stack, OpenOptions{Crypter: opts.Crypter, Verify: true})
	if err != nil {
		return nil
	}
	if _, err := load(ctx, b, stack, OpenOptions{Crypter: opts.Crypter}); errors.Is(err, ErrRolledBack) {
		return nil
	}
	return fmt.Errorf("the current state of stack %s (%s) reads cleanly and records %d resources; "+
		"restoring the backup would forget what changed since it was written. Pass --force to restore it anyway",
		stack, b.Describe(stack, PartSnapshot), liveCount(st.snapshot))
}

func liveCount(s *Snapshot) int {
	n := 0
	for _, r := range s.Resources {
		if !r.Delete {
			n++
		}
	}
	return n
}

// Salvage reads everything of a stack's state that can still be read,
// without locking or writing: the snapshot (or, if it cannot be read, the
// backup), and the journal up to its first damaged or unfitting record.
// Notes says, in sentences for people, everything that was dropped or is
// doubtful. The result may fail Verify; notes then says so.
func Salvage(ctx context.Context, b Backend, stack string, c Crypter) (snap *Snapshot, notes []string, err error) {
	if err := ValidateStackName(stack); err != nil {
		return nil, nil, err
	}
	sv := &salvager{b: b, stack: stack, c: c}
	exp := expectedMark(ctx, b, stack)
	st := sv.base(ctx)
	st = sv.journal(ctx, st)
	if len(sv.notes) == 0 && olderThan(st.mark(), false, exp) {
		// Nothing was dropped here, yet the state is older: a rollback.
		note := fmt.Sprintf("The salvaged state is at %s, but %s records %s: it lacks what was recorded since.", st.mark(), exp.By, exp.Mark)
		if lost := lostSince(ctx, b, stack, c, st.mark(), st.snapshot); len(lost) > 0 {
			note += " Recorded since:" + listing(lost)
		}
		sv.note("%s", note)
	}
	if err := st.snapshot.Verify(); err != nil {
		sv.note("The salvaged state fails the integrity check (%v); repair the file by hand before importing it.", err)
	}
	return st.snapshot, sv.notes, nil
}

type salvager struct {
	b     Backend
	stack string
	c     Crypter
	notes []string
}

func (sv *salvager) note(format string, args ...any) {
	sv.notes = append(sv.notes, fmt.Sprintf(format, args...))
}

// base reads the snapshot, falling back to the backup, then to nothing.
func (sv *salvager) base(ctx context.Context) loaded {
	where := sv.b.Describe(sv.stack, PartSnapshot)
	data, err := sv.b.ReadSnapshot(ctx, sv.stack)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return loaded{snapshot: &Snapshot{}}
	case err != nil:
		sv.note("The snapshot %s cannot be read: %v.", where, err)
		return sv.backup(ctx)
	}
	d, err := decodeSnapshot(data, sv.c, false)
	if err != nil {
		sv.note("The snapshot %s cannot be read: %v.", where, err)
		return sv.backup(ctx)
	}
	if d.badChecksum != nil {
		sv.note("The snapshot %s was read although %v; check every resource in the file against the real world.", where, d.badChecksum)
	}
	return loaded{snapshot: d.snap, seq: d.seq, lineage: d.lineage, serial: d.serial}
}

func (sv *salvager) backup(ctx context.Context) loaded {
	bs, ok := sv.b.(BackupStore)
	if ok {
		data, written, err := bs.ReadBackup(ctx, sv.stack)
		if err == nil {
			d, err := decodeSnapshot(data, sv.c, true)
			if err == nil {
				sv.note("Started instead from the backup %s, written %s: changes recorded after it are missing unless the journal holds them.", bs.DescribeBackup(sv.stack), written.Format(time.RFC3339))
				return loaded{snapshot: d.snap, seq: d.seq, lineage: d.lineage, serial: d.serial}
			}
			sv.note("The backup %s cannot be read either: %v.", bs.DescribeBackup(sv.stack), err)
		}
	}
	sv.note("Started from an empty state: every resource the snapshot recorded is missing from the result.")
	return loaded{snapshot: &Snapshot{}}
}

// journal replays the journal's readable records onto st, stopping at the
// first that is damaged or does not fit.
func (sv *salvager) journal(ctx context.Context, st loaded) loaded {
	where := sv.b.Describe(sv.stack, PartJournal)
	j, err := sv.b.ReadJournal(ctx, sv.stack)
	var ce *JournalCorruptError
	switch {
	case errors.As(err, &ce):
		j.Records = ce.Intact
		dropped := append([]string{fmt.Sprintf("record %d: damaged%s", ce.Record, tornWhat(ce.Damaged))}, sv.describe(ce.After, ce.Record+1)...)
		sv.note("The journal %s: record %d (at byte %d) is damaged; it and every record after it were dropped, and the %d records before it kept. Dropped:%s",
			where, ce.Record, ce.Offset, len(ce.Intact), listing(dropped))
	case err != nil:
		sv.note("The journal %s cannot be read (%v); none of its records were used.", where, err)
		return st
	}
	if j.Torn != nil {
		sv.note("The journal %s %s", where, describeTorn(j.Torn))
	}
	live, base := NewLive(st.snapshot), st.seq
	for i, rec := range j.Records {
		if err := sv.apply(live, rec, base, &st); err != nil {
			sv.note("The journal %s: records %d to %d of %d were dropped: record %d %v. Dropped:%s",
				where, i+1, len(j.Records), len(j.Records), i+1, err, listing(sv.describe(j.Records[i:], i+1)))
			break
		}
	}
	st.snapshot = live.Snapshot()
	return st
}

func (sv *salvager) apply(live *Live, rec []byte, base uint64, st *loaded) error {
	e, err := DecodeEntry(rec, sv.c)
	switch {
	case err != nil:
		return fmt.Errorf("cannot be read: %w", err)
	case e.Seq <= base:
		return nil
	case e.Seq != st.seq+1:
		return fmt.Errorf("has sequence number %d where %d belongs", e.Seq, st.seq+1)
	}
	if err := live.Apply(e); err != nil {
		return fmt.Errorf("does not fit the state before it: %w", err)
	}
	st.seq = e.Seq
	st.replayed++
	return nil
}

// DecodeExport reads a state file written by `plinth state export`, which
// may have been repaired by hand since: a checksum that no longer matches
// is reported in note rather than refused. The caller checks Verify.
func DecodeExport(data []byte, c Crypter) (snap *Snapshot, note string, err error) {
	d, err := decodeSnapshot(data, c, false)
	if err != nil {
		return nil, "", err
	}
	if d.badChecksum != nil {
		note = fmt.Sprintf("The file was read although %v; it was probably repaired by hand.", d.badChecksum)
	}
	return d.snap, note, nil
}

// HoldsSecrets reports whether any stored form of the stack's state (the
// snapshot, its backup, the journal) holds a sealed secret value. It reads
// bytes only, so it needs no key: the secrets package asks it before it
// makes a new key, which could not open them.
func HoldsSecrets(ctx context.Context, b Backend, stack string) (bool, error) {
	sig := []byte(sigSecret)
	data, err := b.ReadSnapshot(ctx, stack)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrSnapshotLost) {
		return false, fmt.Errorf("reading the state of stack %s: %w", stack, err)
	}
	if bytes.Contains(data, sig) {
		return true, nil
	}
	if bs, ok := b.(BackupStore); ok {
		if data, _, err := bs.ReadBackup(ctx, stack); err == nil && bytes.Contains(data, sig) {
			return true, nil
		}
	}
	j, err := b.ReadJournal(ctx, stack)
	var ce *JournalCorruptError
	if errors.As(err, &ce) {
		j.Records = ce.Intact
	}
	for _, r := range j.Records {
		if bytes.Contains(r, sig) {
			return true, nil
		}
	}
	return false, nil
}

// describe says what each journal record holds, for a list of what
// salvage dropped: its position (from first), its sequence number, the
// step and the resource by URN and ID.
func (sv *salvager) describe(records [][]byte, first int) []string {
	var out []string
	for i, rec := range records {
		e, err := DecodeEntry(rec, sv.c)
		if err != nil {
			out = append(out, fmt.Sprintf("record %d: cannot be read (%v)%s", first+i, err, tornWhat(rec)))
			continue
		}
		out = append(out, fmt.Sprintf("record %d (sequence %d): %s", first+i, e.Seq, describeEntry(e)))
	}
	return out
}

// describeEntry says what a journal entry records, naming its resource
// by URN and ID: "the end of a create of URN, ID i-1".
func describeEntry(e *Entry) string {
	s := fmt.Sprintf("the %s of %s", e.Kind, article(string(e.Op)))
	switch {
	case e.Op == OpOutputs:
		return "a write of the stack outputs"
	case e.Kind == Write:
		s = "a write of " + article(string(e.Op))
	}
	r := e.New
	if r == nil {
		r = e.Old
	}
	if r == nil {
		return s
	}
	s += " of " + string(r.URN)
	if r.ID != "" {
		s += ", ID " + r.ID
	} else if e.Old != nil && e.Old.ID != "" {
		s += ", ID " + e.Old.ID
	}
	return s
}

// tornWhat says what damaged bytes appear to hold, as far as can be read:
// " (it appears to hold the end of a create of URN, ID i-1)", or "".
func tornWhat(data []byte) string {
	what := ""
	if m := tornKind.FindSubmatch(data); m != nil {
		what = "the " + string(m[1])
		if m := tornOp.FindSubmatch(data); m != nil {
			what += " of " + article(string(m[1]))
		}
	}
	if m := tornURN.FindSubmatch(data); m != nil {
		what += " of " + string(m[1])
		if m := tornID.FindSubmatch(data); m != nil {
			what += ", ID " + string(m[1])
		}
	}
	if what == "" {
		return ""
	}
	return " (it appears to hold " + strings.TrimPrefix(what, " of ") + ")"
}

// listing renders dropped records one a line.
func listing(items []string) string {
	return "\n  " + strings.Join(items, "\n  ")
}

// article puts "a" or "an" before a word.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}
