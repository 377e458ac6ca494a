package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// stackData is everything a backend holds for a stack but its lock.
type stackData struct {
	snapshot, secrets []byte
	journal, history  [][]byte
}

// MigrateReport says what Migrate copied.
type MigrateReport struct {
	SnapshotBytes  int
	JournalRecords int
	HistoryRecords int
	Secrets        bool
}

// Migrate copies a stack from one backend to another, byte for byte
// (secrets stay sealed with the same key), holding both stacks' locks. It
// refuses if the target already holds the stack, reads the copy back and
// compares it before reporting success, and removes a copy that failed.
// The source is only read.
func Migrate(ctx context.Context, from, to Backend, stack string) (MigrateReport, error) {
	if err := ValidateStackName(stack); err != nil {
		return MigrateReport{}, err
	}
	src, err := from.Lock(ctx, stack, CurrentProcess("plinth state migrate"))
	if err != nil {
		return MigrateReport{}, fmt.Errorf("locking the source: %w", err)
	}
	defer src.Unlock(ctx)
	dst, err := to.Lock(ctx, stack, CurrentProcess("plinth state migrate"))
	if err != nil {
		return MigrateReport{}, fmt.Errorf("locking the target: %w", err)
	}
	defer dst.Unlock(ctx)
	if err := refuseExisting(ctx, to, stack); err != nil {
		return MigrateReport{}, err
	}
	data, err := readStack(ctx, from, stack)
	if err != nil {
		return MigrateReport{}, err
	}
	err = writeStack(ctx, to, stack, data)
	if err == nil {
		err = verifyCopy(ctx, to, stack, data)
	}
	if err != nil {
		return MigrateReport{}, errors.Join(err, to.RemoveStack(ctx, stack))
	}
	return MigrateReport{SnapshotBytes: len(data.snapshot), JournalRecords: len(data.journal),
		HistoryRecords: len(data.history), Secrets: data.secrets != nil}, nil
}

// refuseExisting fails if the backend holds a snapshot, journal or
// secrets configuration of the stack. (A listed stack with none of them
// is only the lock Migrate holds.)
func refuseExisting(ctx context.Context, b Backend, stack string) error {
	_, serr := b.ReadSnapshot(ctx, stack)
	_, cerr := b.ReadSecretsConfig(ctx, stack)
	j, jerr := b.ReadJournal(ctx, stack)
	for _, err := range []error{serr, cerr, jerr} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading the target: %w", err)
		}
	}
	if serr == nil || cerr == nil || len(j.Records) > 0 {
		return fmt.Errorf("the target already holds stack %s (%s); migrate to a backend without it, or remove it there first with `plinth stack rm`", stack, b.Describe(stack, PartSnapshot))
	}
	return nil
}

func readStack(ctx context.Context, b Backend, stack string) (stackData, error) {
	var d stackData
	var err error
	if d.snapshot, err = b.ReadSnapshot(ctx, stack); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d, fmt.Errorf("reading the source: %w", err)
	}
	if d.secrets, err = b.ReadSecretsConfig(ctx, stack); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d, fmt.Errorf("reading the source: %w", err)
	}
	j, err := b.ReadJournal(ctx, stack)
	if err != nil {
		return d, fmt.Errorf("reading the source's journal: %w", err)
	}
	if j.Torn != nil {
		return d, fmt.Errorf("the source's journal %s ends in a torn record; run any plinth command on the stack first to recover it", b.Describe(stack, PartJournal))
	}
	d.journal = j.Records
	if hs, ok := b.(HistoryStore); ok {
		if d.history, err = hs.ReadHistory(ctx, stack); err != nil {
			return d, fmt.Errorf("reading the source's history: %w", err)
		}
	}
	if d.snapshot == nil && d.secrets == nil && len(d.journal) == 0 {
		return d, fmt.Errorf("the source holds no stack %s (%s): nothing to migrate", stack, b.Describe(stack, PartSnapshot))
	}
	return d, nil
}

func writeStack(ctx context.Context, b Backend, stack string, d stackData) error {
	var err error
	if d.secrets != nil {
		err = b.WriteSecretsConfig(ctx, stack, d.secrets)
	}
	if err == nil && d.snapshot != nil {
		err = b.WriteSnapshot(ctx, stack, d.snapshot)
	}
	if err == nil && len(d.journal) > 0 {
		err = b.AppendJournal(ctx, stack, d.journal)
	}
	if hs, ok := b.(HistoryStore); ok && err == nil {
		for _, h := range d.history {
			if err = hs.AppendHistory(ctx, stack, h); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("writing the copy: %w", err)
	}
	return nil
}

// verifyCopy reads the copy back and compares it with what was read
// from the source, then checks that it loads.
func verifyCopy(ctx context.Context, b Backend, stack string, want stackData) error {
	got, err := readStack(ctx, b, stack)
	if err != nil {
		return fmt.Errorf("reading the copy back: %w", err)
	}
	_, hasHistory := b.(HistoryStore)
	switch {
	case !bytes.Equal(got.snapshot, want.snapshot):
		return fmt.Errorf("the copy's snapshot differs from the source's")
	case !bytes.Equal(got.secrets, want.secrets):
		return fmt.Errorf("the copy's secrets configuration differs from the source's")
	case !equalRecords(got.journal, want.journal):
		return fmt.Errorf("the copy's journal differs from the source's")
	case hasHistory && len(got.history) != len(want.history):
		return fmt.Errorf("the copy holds %d history records, the source %d", len(got.history), len(want.history))
	}
	if _, err := Load(ctx, b, stack, OpenOptions{Crypter: blind{}}); err != nil {
		return fmt.Errorf("the copy does not load: %w", err)
	}
	return nil
}

func equalRecords(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// blind reads state without its key: every secret reads as "".
type blind struct{}

func (blind) Seal([]byte) (string, error) { return "", errors.New("cannot seal without the key") }
func (blind) Open(string) ([]byte, error) { return []byte(`""`), nil }
