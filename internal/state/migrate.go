package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
)

// stackData is everything a backend holds for a stack but its lock.
type stackData struct {
	snapshot, secrets []byte
	journal, history  [][]byte
	// torn is set if the journal ends in a torn record; lost if the
	// snapshot is missing although the backend marked one written (a
	// migrate stopped mid-write of the snapshot leaves that).
	torn, lost bool
}

// PartHistory names a stack's update history, for MigrateOptions.
const PartHistory Part = "history"

// MigrateReport says what Migrate copied.
type MigrateReport struct {
	SnapshotBytes  int
	JournalRecords int
	HistoryRecords int
	Secrets        bool
	// Resumed is set when the target held part of the copy, left by a
	// migrate that was stopped, and Migrate wrote the rest.
	Resumed bool
}

// MigrateOptions adjust Migrate.
type MigrateOptions struct {
	// BeforeWrite, if set, is called before each part is written to the
	// target (the secrets configuration first, just after the target
	// was checked): a test hook that opens the window another command
	// could use, or stops the copy part way.
	BeforeWrite func(part Part)
}

// Migrate copies a stack from one backend to another, byte for byte
// (secrets stay sealed with the same key), holding both stacks' locks.
// Under the target's lock it checks that the target holds nothing of the
// stack, or only a part of this very copy that an earlier migrate left
// when it was stopped (which it finishes). The target's secrets
// configuration is created only if it has none (CreateSecretsConfig): a
// first command on the target that created one meanwhile keeps it, and
// Migrate refuses. It reads the copy back and compares it before
// reporting success. If the copy fails it removes the target stack only
// if this call created all of it, still holding the lock; otherwise it
// leaves what was copied for a later call to finish. The source is only
// read.
func Migrate(ctx context.Context, from, to Backend, stack string, opts MigrateOptions) (MigrateReport, error) {
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
	data, err := readStack(ctx, from, stack)
	if err != nil {
		return MigrateReport{}, err
	}
	have, err := readTarget(ctx, to, stack)
	if err != nil {
		return MigrateReport{}, err
	}
	if err := checkTarget(to, stack, data, have); err != nil {
		return MigrateReport{}, err
	}
	w := copier{b: to, stack: stack, want: data, have: have, hook: opts.BeforeWrite}
	err = w.write(ctx)
	if err == nil {
		err = verifyCopy(ctx, to, stack, data)
	}
	if err != nil {
		return MigrateReport{}, w.undo(ctx, err)
	}
	return MigrateReport{SnapshotBytes: len(data.snapshot), JournalRecords: len(data.journal),
		HistoryRecords: len(data.history), Secrets: data.secrets != nil, Resumed: !have.empty()}, nil
}

// readTarget reads what the target holds of the stack: nothing, or a
// part of the copy, or another stack of the same name.
func readTarget(ctx context.Context, b Backend, stack string) (stackData, error) {
	d, err := readParts(ctx, b, stack)
	if err != nil {
		return d, fmt.Errorf("reading the target: %w", err)
	}
	return d, nil
}

// empty reports whether d holds nothing of the stack. (A listed stack
// with nothing in it is only the lock Migrate holds.)
func (d stackData) empty() bool {
	return d.snapshot == nil && d.secrets == nil && len(d.journal) == 0 && len(d.history) == 0 && !d.torn && !d.lost
}

// checkTarget fails unless the target holds nothing of the stack, or a
// strict prefix of the copy of want in the order Migrate writes it
// (secrets configuration, snapshot, journal, history): the part an
// earlier migrate wrote before it was stopped. Anything else is another
// stack, which Migrate leaves alone.
func checkTarget(b Backend, stack string, want, have stackData) error {
	if have.empty() {
		return nil
	}
	if have.secrets != nil && !bytes.Equal(have.secrets, want.secrets) {
		return differentSecrets(b, stack)
	}
	if !isPrefix(want, have) {
		return fmt.Errorf("the target already holds stack %s (%s), and it is not a copy of the source's; migrate to a backend without it, or remove it there first with `plinth stack rm`", stack, b.Describe(stack, PartSnapshot))
	}
	if !have.torn && !have.lost && bytes.Equal(have.snapshot, want.snapshot) && len(have.journal) == len(want.journal) && len(have.history) == len(want.history) {
		return fmt.Errorf("the target already holds stack %s (%s), identical to the source's: an earlier migrate copied it; point plinth at that backend to use it", stack, b.Describe(stack, PartSnapshot))
	}
	return nil
}

// isPrefix reports whether have is what Migrate writes of want up to
// some point: each part equal to want's, or missing (or, for the
// journal and history, a prefix) only if no later part is present.
func isPrefix(want, have stackData) bool {
	if have.secrets == nil && want.secrets != nil {
		return have.snapshot == nil && len(have.journal) == 0 && len(have.history) == 0 && !have.torn && !have.lost
	}
	if have.lost && (have.secrets == nil || want.snapshot == nil) {
		return false
	}
	if have.snapshot == nil && want.snapshot != nil {
		return len(have.journal) == 0 && len(have.history) == 0 && !have.torn
	}
	if !bytes.Equal(have.snapshot, want.snapshot) || len(have.journal) > len(want.journal) ||
		!equalRecords(have.journal, want.journal[:len(have.journal)]) {
		return false
	}
	if len(have.history) > 0 && (have.torn || len(have.journal) < len(want.journal)) {
		return false
	}
	return len(have.history) <= len(want.history) && equalHistory(have.history, want.history[:len(have.history)])
}

// differentSecrets is the error for a target stack whose secrets
// configuration is not the source's: another command created the stack
// there (a first `plinth up`, perhaps while Migrate ran), and its values
// are sealed with a key of its own.
func differentSecrets(b Backend, stack string) error {
	return &differentSecretsError{stack: stack, where: b.Describe(stack, PartSecrets)}
}

// differentSecretsError is a target stack with another secrets
// configuration than the source's.
type differentSecretsError struct{ stack, where string }

func (e *differentSecretsError) Error() string {
	return fmt.Sprintf("the target already holds a secrets configuration for stack %s (%s) that is not the source's: another command created the stack there, "+
		"perhaps while this migrate ran, and what it stored is sealed with its own key. Nothing of it was changed. "+
		"Migrate to a backend without the stack, or, if that stack holds nothing you need, remove it there with `plinth stack rm` and run migrate again",
		e.stack, e.where)
}

// copier writes the parts of a copy the target lacks.
type copier struct {
	b     Backend
	stack string
	want  stackData
	have  stackData
	hook  func(Part)
	// created is set once this copier created the target's secrets
	// configuration on a target that held nothing: then everything the
	// target holds of the stack is its own.
	created bool
}

func (c *copier) before(p Part) {
	if c.hook != nil {
		c.hook(p)
	}
}

// write writes the secrets configuration, the snapshot, the journal and
// the history, in that order, skipping what the target holds already.
func (c *copier) write(ctx context.Context) error {
	if err := c.writeSecrets(ctx); err != nil {
		return err
	}
	var err error
	if c.have.snapshot == nil && c.want.snapshot != nil {
		c.before(PartSnapshot)
		err = c.b.WriteSnapshot(ctx, c.stack, c.want.snapshot)
	}
	if err == nil && c.have.torn {
		// A record torn by a migrate stopped mid-append: the records
		// before it are the copy's, and are written again.
		err = c.b.TruncateJournal(ctx, c.stack)
		c.have.journal = nil
	}
	if rest := c.want.journal[len(c.have.journal):]; err == nil && len(rest) > 0 {
		c.before(PartJournal)
		err = c.b.AppendJournal(ctx, c.stack, rest)
	}
	if hs, ok := c.b.(HistoryStore); ok && err == nil {
		c.before(PartHistory)
		for _, h := range c.want.history[len(c.have.history):] {
			if err = hs.AppendHistory(ctx, c.stack, h); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("writing the copy: %w", err)
	}
	return nil
}

// writeSecrets creates the target's secrets configuration unless it has
// one; one another command created since the target was checked is kept,
// and the copy refused unless it is the source's.
func (c *copier) writeSecrets(ctx context.Context) error {
	if c.want.secrets == nil || c.have.secrets != nil {
		// The source has none, or the target holds the copy's from
		// an earlier migrate: this one creates none, so nothing shows
		// that the target stack is all its own, and a failure leaves
		// it as it is.
		return nil
	}
	c.before(PartSecrets)
	created, existing, err := c.b.CreateSecretsConfig(ctx, c.stack, c.want.secrets)
	if err != nil {
		return fmt.Errorf("writing the copy: %w", err)
	}
	if !created && !bytes.Equal(existing, c.want.secrets) {
		return differentSecrets(c.b, c.stack)
	}
	c.created = created && c.have.empty()
	return nil
}

// undo handles a copy that failed with err. The target stack is removed,
// while the lock is still held, only if this copier created all of it;
// otherwise it holds another's stack, or a part of the copy that a later
// migrate can finish, and is left as it is.
func (c *copier) undo(ctx context.Context, err error) error {
	if c.created {
		if rerr := c.b.RemoveStack(ctx, c.stack); rerr != nil {
			return fmt.Errorf("%w; removing the part copied failed too (%v): run migrate again to finish the copy", err, rerr)
		}
		return err
	}
	var other *differentSecretsError
	if errors.As(err, &other) {
		return err
	}
	return fmt.Errorf("%w; the part copied so far is left on the target: run migrate again to finish the copy", err)
}

// readStack reads the source's stack, which must exist and whose
// journal must not end in a torn record.
func readStack(ctx context.Context, b Backend, stack string) (stackData, error) {
	d, err := readParts(ctx, b, stack)
	if err != nil {
		return d, fmt.Errorf("reading the source: %w", err)
	}
	if d.lost {
		return d, fmt.Errorf("reading the source: %w", ErrSnapshotLost)
	}
	if d.torn {
		return d, fmt.Errorf("the source's journal %s ends in a torn record; run any plinth command on the stack first to recover it", b.Describe(stack, PartJournal))
	}
	if d.snapshot == nil && d.secrets == nil && len(d.journal) == 0 {
		return d, fmt.Errorf("the source holds no stack %s (%s): nothing to migrate", stack, b.Describe(stack, PartSnapshot))
	}
	return d, nil
}

// readParts reads what the backend holds of the stack; a missing part
// is nil.
func readParts(ctx context.Context, b Backend, stack string) (stackData, error) {
	var d stackData
	var err error
	d.snapshot, err = b.ReadSnapshot(ctx, stack)
	d.lost = errors.Is(err, ErrSnapshotLost)
	if err != nil && !d.lost && !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	if d.secrets, err = b.ReadSecretsConfig(ctx, stack); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	j, err := b.ReadJournal(ctx, stack)
	if err != nil {
		return d, fmt.Errorf("the journal: %w", err)
	}
	d.journal, d.torn = j.Records, j.Torn != nil
	if hs, ok := b.(HistoryStore); ok {
		if d.history, err = hs.ReadHistory(ctx, stack); err != nil {
			return d, fmt.Errorf("the history: %w", err)
		}
	}
	return d, nil
}

// verifyCopy reads the copy back and compares it with what was read
// from the source, then checks that it loads.
func verifyCopy(ctx context.Context, b Backend, stack string, want stackData) error {
	got, err := readParts(ctx, b, stack)
	if err != nil {
		return fmt.Errorf("reading the copy back: %w", err)
	}
	if got.lost {
		return fmt.Errorf("reading the copy back: %w", ErrSnapshotLost)
	}
	if got.torn {
		return fmt.Errorf("the copy's journal %s ends in a torn record", b.Describe(stack, PartJournal))
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
	case hasHistory && !equalHistory(got.history, want.history):
		return fmt.Errorf("the copy's history differs from the source's")
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

// equalHistory reports whether two lists of history records hold the
// same JSON values: a backend may store them in another spelling
// (PostgreSQL's jsonb orders keys and drops spaces).
func equalHistory(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal(a[i], &x) != nil || json.Unmarshal(b[i], &y) != nil || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// blind reads state without its key: every secret reads as "".
type blind struct{}

func (blind) Seal([]byte) (string, error) { return "", errors.New("cannot seal without the key") }
func (blind) Open(string) ([]byte, error) { return []byte(`""`), nil }
