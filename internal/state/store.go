package state

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
)

// The storage interfaces. A backend stores bytes for named stacks; it knows
// nothing of resources, secrets or JSON. Each interface is small so that a
// caller asks only for what it uses; Backend is all of them together.
//
// Reads of something never written report an error for which
// errors.Is(err, fs.ErrNotExist) holds.

// SnapshotStore holds the last compacted snapshot of each stack.
type SnapshotStore interface {
	ReadSnapshot(ctx context.Context, stack string) ([]byte, error)
	// WriteSnapshot replaces the snapshot atomically: a reader sees the old
	// bytes or the new, never a mix, even if the process dies mid-write.
	WriteSnapshot(ctx context.Context, stack string, data []byte) error
}

// JournalStore holds the journal of each stack: records appended since the
// snapshot was last written.
type JournalStore interface {
	// AppendJournal appends records, in order, and returns once they are
	// durable. If it fails, any prefix of them may have been stored.
	AppendJournal(ctx context.Context, stack string, records [][]byte) error
	// ReadJournal returns every record in order, none if the journal is
	// missing. A final record torn by a crash mid-append is dropped; damage
	// anywhere else is an error.
	ReadJournal(ctx context.Context, stack string) ([][]byte, error)
	// TruncateJournal empties the journal durably. A missing journal is
	// already empty.
	TruncateJournal(ctx context.Context, stack string) error
}

// Locker gives one process at a time the right to change a stack.
type Locker interface {
	// Lock takes the stack's lock for holder, or fails at once with a
	// *LockedError naming who holds it.
	Lock(ctx context.Context, stack string, holder LockHolder) (Unlocker, error)
	// ForceUnlock breaks the stack's lock whoever holds it. People run it
	// (`plinth state unlock`) when the holder is known to be dead.
	ForceUnlock(ctx context.Context, stack string) error
}

// Unlocker releases a lock taken by Lock. Unlock releases only that lock:
// if it was broken and taken by another, Unlock leaves the new one alone.
type Unlocker interface {
	Unlock(ctx context.Context) error
}

// StackLister lists and removes stacks.
type StackLister interface {
	// ListStacks returns the names of the stacks held, sorted.
	ListStacks(ctx context.Context) ([]string, error)
	// RemoveStack deletes everything stored for the stack, its lock
	// included. The caller decides whether the stack may go.
	RemoveStack(ctx context.Context, stack string) error
}

// SecretsConfigStore holds each stack's secrets configuration (a salt and
// check value, or a generated key) as the secrets package encodes it.
// Backends must keep it from other users: it may be a key.
type SecretsConfigStore interface {
	ReadSecretsConfig(ctx context.Context, stack string) ([]byte, error)
	WriteSecretsConfig(ctx context.Context, stack string, data []byte) error
}

// Describer says where a stack's data lives, for messages to people.
type Describer interface {
	// Describe names the place of one part of a stack: a file path, or a
	// table and key.
	Describe(stack string, part Part) string
}

// Part names one kind of data a backend holds for a stack.
type Part string

// The parts of a stack.
const (
	PartSnapshot Part = "snapshot"
	PartJournal  Part = "journal"
	PartLock     Part = "lock"
	PartSecrets  Part = "secrets configuration"
)

// Backend is a complete store of stacks.
type Backend interface {
	SnapshotStore
	JournalStore
	Locker
	StackLister
	SecretsConfigStore
	Describer
}

// LockHolder says who holds a lock, so that whoever is refused can tell.
type LockHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	// Command is what the holder is doing, e.g. "plinth up".
	Command string `json:"command"`
}

// CurrentProcess describes this process as a lock holder running command.
func CurrentProcess(command string) LockHolder {
	host, _ := os.Hostname()
	return LockHolder{PID: os.Getpid(), Host: host, Started: time.Now().UTC().Truncate(time.Second), Command: command}
}

func (h LockHolder) String() string {
	if h.PID == 0 && h.Host == "" {
		return "an unknown process"
	}
	s := fmt.Sprintf("process %d on host %s since %s", h.PID, h.Host, h.Started.Format(time.RFC3339))
	if h.Command != "" {
		s += fmt.Sprintf(" (%s)", h.Command)
	}
	return s
}

// LockedError reports a stack locked by someone else.
type LockedError struct {
	Stack  string
	Holder LockHolder
	// Stale is set when the backend knows the holder is dead: it ran on
	// this host and its process is gone.
	Stale bool
}

func (e *LockedError) Error() string {
	if e.Stale {
		return fmt.Sprintf("stack %s is locked by %s, which is no longer running; "+
			"if you are sure no plinth command is using the stack, run `plinth state unlock --stack %s` to break the lock",
			e.Stack, e.Holder, e.Stack)
	}
	return fmt.Sprintf("stack %s is locked by %s; wait for it to finish, "+
		"or if that process is dead, run `plinth state unlock --stack %s` to break the lock",
		e.Stack, e.Holder, e.Stack)
}

var stackName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$`)

// ValidateStackName checks that a stack name is 1 to 100 letters, digits,
// '_', '.' and '-', not starting with '.' or '-': a name every backend can
// store, that is safe as a file name.
func ValidateStackName(name string) error {
	if !stackName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("invalid stack name %q: use 1 to 100 letters, digits, '_', '.' and '-', starting with a letter, digit or '_'", name)
	}
	return nil
}
