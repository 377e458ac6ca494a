package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
)

// File names within a stack's directory.
const (
	snapshotFile = "snapshot.json"
	backupFile   = "snapshot.json.bak"
	// staleBackup is the temporary name earlier versions linked the
	// backup under; one may be left behind.
	staleBackup = "snapshot.json.bak.new"
	journalFile = "journal"
	lockFile    = "lock"
	secretsFile = "secrets.json"
	// markerFile is written with a stack's first snapshot and never
	// removed but with the stack: while it exists a missing snapshot.json
	// is an error, never an empty stack.
	markerFile = "stack.json"
)

// Backend stores stacks under a root directory. It is safe for concurrent
// use; the lock keeps processes apart.
type Backend struct {
	root string
	// frameMu guards frameBuf, a buffer AppendJournal framed records in
	// before, kept for the next (see takeFrameBuf).
	frameMu  sync.Mutex
	frameBuf []byte
}

var _ state.Backend = (*Backend)(nil)

// New returns a backend rooted at dir (the CLI passes <project>/.plinth).
// The directory is created when something is first written.
func New(dir string) *Backend { return &Backend{root: dir} }

// stackDir returns the stack's directory, refusing names that are not
// plain file names.
func (b *Backend) stackDir(stack string) (string, error) {
	if err := state.ValidateStackName(stack); err != nil {
		return "", err
	}
	return filepath.Join(b.root, "stacks", stack), nil
}

func (b *Backend) path(stack, name string) (string, error) {
	dir, err := b.stackDir(stack)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// Describe returns the path of a part of a stack.
func (b *Backend) Describe(stack string, part state.Part) string {
	name := map[state.Part]string{
		state.PartSnapshot: snapshotFile, state.PartJournal: journalFile,
		state.PartLock: lockFile, state.PartSecrets: secretsFile,
	}[part]
	return filepath.Join(b.root, "stacks", stack, name)
}

func (b *Backend) readFile(stack, name string) ([]byte, error) {
	p, err := b.path(stack, name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

var _ state.SnapshotMapper = (*Backend)(nil)

// MapSnapshot is ReadSnapshot with snapshot.json mapped into memory
// rather than read into the heap; release unmaps it.
func (b *Backend) MapSnapshot(ctx context.Context, stack string) ([]byte, func(), error) {
	p, err := b.path(stack, snapshotFile)
	if err != nil {
		return nil, func() {}, err
	}
	data, release, err := mapFile(p)
	if err == nil {
		return data, release, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		data, err = b.ReadSnapshot(ctx, stack) // says whether it was lost
	}
	return data, func() {}, err
}

// ReadSnapshot reads snapshot.json. If it is missing although the stack
// has written one (its marker or backup exists), the error matches
// state.ErrSnapshotLost rather than fs.ErrNotExist.
func (b *Backend) ReadSnapshot(_ context.Context, stack string) ([]byte, error) {
	data, err := b.readFile(stack, snapshotFile)
	if !errors.Is(err, fs.ErrNotExist) {
		return data, err
	}
	for _, name := range []string{markerFile, backupFile} {
		if _, serr := b.readFile(stack, name); serr == nil {
			return nil, fmt.Errorf("%s is missing but %s exists: %w", b.Describe(stack, state.PartSnapshot), name, state.ErrSnapshotLost)
		}
	}
	return nil, err
}

// WriteSnapshot replaces snapshot.json atomically, keeping the one it
// replaces as snapshot.json.bak (the first snapshot is kept as the backup
// too, so that there is always one). The first write also creates the
// stack's marker, so that the snapshot can never silently go missing.
func (b *Backend) WriteSnapshot(ctx context.Context, stack string, data []byte) error {
	return b.StreamSnapshot(ctx, stack, func(w io.Writer) (state.SnapshotPatch, error) {
		_, err := w.Write(data)
		return state.SnapshotPatch{}, err
	})
}

var _ state.SnapshotStreamer = (*Backend)(nil)

// StreamSnapshot is WriteSnapshot with the snapshot written by write as
// it is encoded, then patched (see state.SnapshotStreamer).
func (b *Backend) StreamSnapshot(_ context.Context, stack string, write func(io.Writer) (state.SnapshotPatch, error)) error {
	dir, err := b.stackDir(stack)
	if err != nil {
		return err
	}
	if err := b.writeMarker(dir); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(dir, staleBackup))
	if err := atomicStream(dir, snapshotFile, write, backupFile); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, backupFile)); errors.Is(err, fs.ErrNotExist) {
		keepBackup(dir, snapshotFile, backupFile)
	}
	return nil
}

// writeMarker creates the stack's marker file if it is missing.
func (b *Backend) writeMarker(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, markerFile)); err == nil {
		return nil
	}
	marker := []byte(`{"version":1,"note":"plinth wrote a snapshot of this stack: snapshot.json must exist"}` + "\n")
	return atomicWrite(dir, markerFile, marker, "")
}

var _ state.BackupStore = (*Backend)(nil)

// ReadBackup reads snapshot.json.bak and its modification time.
func (b *Backend) ReadBackup(_ context.Context, stack string) ([]byte, time.Time, error) {
	p, err := b.path(stack, backupFile)
	if err != nil {
		return nil, time.Time{}, err
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	data, err := os.ReadFile(p)
	return data, info.ModTime(), err
}

// ReadSecretsConfig reads secrets.json.
func (b *Backend) ReadSecretsConfig(_ context.Context, stack string) ([]byte, error) {
	return b.readFile(stack, secretsFile)
}

// WriteSecretsConfig replaces secrets.json atomically, with mode 0600.
func (b *Backend) WriteSecretsConfig(_ context.Context, stack string, data []byte) error {
	dir, err := b.stackDir(stack)
	if err != nil {
		return err
	}
	return atomicWrite(dir, secretsFile, data, "")
}

// CreateSecretsConfig creates secrets.json holding data, with mode 0600,
// unless it exists: the file is written and synced under a temporary
// name and hard-linked as secrets.json, which fails if another process
// linked it first (the lock file is taken the same way). Then the file
// that one linked, complete, is returned.
func (b *Backend) CreateSecretsConfig(_ context.Context, stack string, data []byte) (bool, []byte, error) {
	p, err := b.path(stack, secretsFile)
	if err != nil {
		return false, nil, err
	}
	err = createExclusive(p, data)
	if errors.Is(err, fs.ErrExist) {
		existing, err := os.ReadFile(p)
		return false, existing, err
	}
	if err != nil {
		return false, nil, fmt.Errorf("creating %s: %w", p, err)
	}
	return true, nil, nil
}

// ListStacks returns the names of the stack directories.
func (b *Backend) ListStacks(context.Context) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(b.root, "stacks"))
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing stacks: %w", err)
	}
	names := []string{}
	for _, e := range entries {
		if e.IsDir() && state.ValidateStackName(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// RemoveStack deletes the stack's directory.
func (b *Backend) RemoveStack(_ context.Context, stack string) error {
	dir, err := b.stackDir(stack)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("removing stack %s: %w", stack, err)
	}
	return syncDir(filepath.Dir(dir))
}

// atomicWrite replaces dir/name with data (mode 0600) so that a reader, or
// a process after a crash, sees the old contents or the new, never a mix.
// If backup is not empty the old file is kept under that name too.
func atomicWrite(dir, name string, data []byte, backup string) error {
	return atomicStream(dir, name, func(w io.Writer) (state.SnapshotPatch, error) {
		_, err := w.Write(data)
		return state.SnapshotPatch{}, err
	}, backup)
}

// atomicStream is atomicWrite of what write writes, patched.
func atomicStream(dir, name string, write func(io.Writer) (state.SnapshotPatch, error), backup string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(dir, name), err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := writePatched(tmp, write); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	target := filepath.Join(dir, name)
	if backup != "" {
		keepBackup(dir, name, backup)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("replacing %s: %w", target, err)
	}
	return syncDir(dir)
}

// writePatched writes f through write, then the patch it returns, syncs
// f and closes it.
func writePatched(f *os.File, write func(io.Writer) (state.SnapshotPatch, error)) error {
	p, err := write(f)
	if err == nil && len(p.Data) > 0 {
		_, err = f.WriteAt(p.Data, p.At)
	}
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

func writeSynced(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// keepBackup copies dir/current to dir/backup, atomically, so that there
// is never a moment without the current file. It copies rather than
// hard-links: one inode for both would make damage to one damage to both
// (and rename does nothing when both names are links to one file). When
// there is no current file the backup is left as it is: it may be the
// only copy left. A failure only loses the new backup.
func keepBackup(dir, current, backup string) {
	src, err := os.Open(filepath.Join(dir, current))
	if err != nil {
		return
	}
	defer src.Close()
	tmp, err := os.CreateTemp(dir, "."+backup+".*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	// The copy is streamed: reading the whole current snapshot held a
	// second large state file while the new one was being written.
	err = writePatched(tmp, func(w io.Writer) (state.SnapshotPatch, error) {
		_, err := io.Copy(w, src)
		return state.SnapshotPatch{}, err
	})
	if err == nil {
		_ = os.Rename(tmp.Name(), filepath.Join(dir, backup))
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}

// DescribeBackup names the previous snapshot kept beside the stack's
// current one, or "" if there is none.
func (b *Backend) DescribeBackup(stack string) string {
	path, err := b.path(stack, backupFile)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// String names the backend: its root directory.
func (b *Backend) String() string { return "the directory " + b.root }
