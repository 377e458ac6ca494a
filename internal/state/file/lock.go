package file

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/state"
)

// lockRecord is the content of a lock file.
type lockRecord struct {
	state.LockHolder
	// Token tells this lock from a later one taken after it was broken.
	Token string `json:"token"`
}

// Lock creates the stack's lock file, complete with its holder, in one
// step: the record is written to a temporary file that is then hard-linked
// as the lock, which fails if a lock exists. So no one ever sees a lock
// file without its holder.
func (b *Backend) Lock(_ context.Context, stack string, holder state.LockHolder) (state.Unlocker, error) {
	p, err := b.path(stack, lockFile)
	if err != nil {
		return nil, err
	}
	rec := lockRecord{LockHolder: holder, Token: newToken()}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encoding lock: %w", err)
	}
	if err := createExclusive(p, data); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, b.lockedError(stack, p)
		}
		return nil, fmt.Errorf("locking stack %s: %w", stack, err)
	}
	return &fileLock{path: p, token: rec.Token, stack: stack}, nil
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// createExclusive creates path holding data, failing with fs.ErrExist if
// it exists.
func createExclusive(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := writeSynced(tmp, data); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// lockedError describes the holder of an existing lock.
func (b *Backend) lockedError(stack, path string) error {
	var rec lockRecord
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err != nil {
		rec = lockRecord{} // unreadable: an unknown holder
	}
	live := state.HolderLiveness(rec.LockHolder)
	return &state.LockedError{Stack: stack, Holder: rec.LockHolder,
		Stale: live == state.LivenessDead, Alive: live == state.LivenessAlive}
}

// ForceUnlock removes the lock file whoever holds it.
func (b *Backend) ForceUnlock(_ context.Context, stack string) error {
	p, err := b.path(stack, lockFile)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("unlocking stack %s: %w", stack, err)
	}
	return nil
}

// fileLock is a lock this process holds.
type fileLock struct {
	path, token, stack string
}

var _ state.LockChecker = (*fileLock)(nil)

// Check reports an error if the lock file is no longer this lock: it was
// broken, and perhaps taken by another command.
func (l *fileLock) Check(context.Context) error {
	var rec lockRecord
	data, err := os.ReadFile(l.path)
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err != nil || rec.Token != l.token {
		return fmt.Errorf("the lock on stack %s (%s) was broken while this command held it; another command may have changed the stack since: %w", l.stack, l.path, state.ErrLockLost)
	}
	return nil
}

// Unlock removes the lock file if it is still this lock.
func (l *fileLock) Unlock(ctx context.Context) error {
	if err := l.Check(ctx); err != nil {
		return err
	}
	if err := os.Remove(l.path); err != nil {
		return fmt.Errorf("unlocking stack %s: %w", l.stack, err)
	}
	return nil
}
