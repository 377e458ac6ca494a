package state

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
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
	// missing. A final record torn by a crash mid-append is dropped and
	// described in JournalRead.Torn, so that the caller can say what was
	// lost; damage anywhere else is a *JournalCorruptError.
	ReadJournal(ctx context.Context, stack string) (JournalRead, error)
	// TruncateJournal empties the journal durably. A missing journal is
	// already empty.
	TruncateJournal(ctx context.Context, stack string) error
}

// ErrInterrupted is matched by an AppendJournal error after which every
// record was stored, but the backend wants the operation to stop: it lost
// its connection and regained it with the lock still its own. A session
// then starts no new steps (it refuses Begin entries) and still records
// how the steps in flight end.
var ErrInterrupted = errors.New("the connection to the state backend was lost and regained")

// JournalRead is what ReadJournal found.
type JournalRead struct {
	Records [][]byte
	// Torn describes bytes at the end of the journal that did not form a
	// whole record and were dropped; nil if there were none.
	Torn *TornTail
}

// TornTail describes the end of a journal that did not form a whole
// record: a write cut short by a crash, or damage to the last record.
type TornTail struct {
	// Record is the position the dropped record would have had, from 1.
	Record int
	// Offset is the byte at which the dropped bytes start; Bytes how many
	// there are.
	Offset, Bytes int64
	// Data holds the dropped bytes (the record's payload as far as it
	// can be found), so that the caller can say what was lost.
	Data []byte
}

// JournalCorruptError reports a journal record that is damaged although
// valid records follow it: not a torn final write but damage.
type JournalCorruptError struct {
	// Where names the journal as Describe does.
	Where string
	// Offset is the byte at which the damaged record starts; Record its
	// position, from 1.
	Offset int64
	Record int
	// Intact holds the records before the damaged one, for salvage.
	Intact [][]byte
	// Damaged holds the damaged record's bytes, up to the next whole
	// record, and After the whole records found after it: salvage drops
	// them and lists what they held, so that it can be imported again.
	Damaged []byte
	After   [][]byte
}

func (e *JournalCorruptError) Error() string {
	return fmt.Sprintf("journal %s: record %d (at byte %d) is damaged but valid records follow it", e.Where, e.Record, e.Offset)
}

// ErrSnapshotLost is matched (errors.Is) by the error ReadSnapshot
// returns when a stack's snapshot is missing although the backend knows
// one was written: the stack must not be read as empty. It does not match
// fs.ErrNotExist.
var ErrSnapshotLost = errors.New("the snapshot is missing although one was written")

// Compactor is implemented by backends that can replace a stack's
// snapshot and empty its journal in one atomic step (a database
// transaction). A session compacts through it when it can; otherwise it
// writes the snapshot, then truncates the journal, and relies on replay
// skipping entries the snapshot already covers if it dies in between.
type Compactor interface {
	Compact(ctx context.Context, stack string, snapshot []byte) error
}

// SnapshotStreamer is implemented by backends that can write a snapshot
// as it is encoded, rather than from its whole bytes: a large state's
// stored form (44 MB at 100,000 resources) is then never held in memory
// beside the state. A session uses it for the snapshot it compacts into.
type SnapshotStreamer interface {
	// StreamSnapshot replaces the snapshot atomically, as WriteSnapshot
	// does, with what write writes to w, after which the patch write
	// returns is written at its offset. If write fails, the snapshot is
	// left as it was.
	StreamSnapshot(ctx context.Context, stack string, write func(w io.Writer) (SnapshotPatch, error)) error
}

// SnapshotMapper is implemented by backends that can lend a snapshot's
// bytes without copying them into the heap (the file backend maps the
// file): a large state's stored form (44 MB at 100,000 resources) then
// takes no heap while it is decoded, and leaves none behind. The bytes
// are read-only and valid until release is called; nothing decoded
// from them may keep them.
type SnapshotMapper interface {
	// MapSnapshot is ReadSnapshot with a release for the bytes.
	MapSnapshot(ctx context.Context, stack string) (data []byte, release func(), err error)
}

// BackupStore is implemented by backends that keep the previous snapshot
// of each stack (the file backend's snapshot.json.bak).
type BackupStore interface {
	// ReadBackup returns the backup's bytes and when it was written, or
	// an error matching fs.ErrNotExist if there is none.
	ReadBackup(ctx context.Context, stack string) (data []byte, written time.Time, err error)
	// DescribeBackup names the backup, or "" if there is none.
	DescribeBackup(stack string) string
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

// LockChecker is implemented by Unlockers that can tell whether their
// lock is still held. A session checks before it compacts, so that a
// command whose lock was broken never overwrites the state or empties a
// journal another command now owns.
type LockChecker interface {
	// Check returns an error matching ErrLockLost if the lock was broken.
	Check(ctx context.Context) error
}

// ErrLockLost is matched by the error of a lock that was broken while its
// holder ran.
var ErrLockLost = errors.New("the stack's lock was broken")

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
	// CreateSecretsConfig stores data if the stack has no configuration,
	// atomically: of concurrent creates, in this process or others,
	// exactly one is told created, and every other is given the data
	// that one stored (existing), never a part of it.
	CreateSecretsConfig(ctx context.Context, stack string, data []byte) (created bool, existing []byte, err error)
	// WriteSecretsConfig replaces the configuration (a change of
	// secrets provider; a migration to a backend without the stack).
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
	PID  int    `json:"pid"`
	Host string `json:"host"`
	// User is the name of the user the process runs as; "" if unknown.
	User    string    `json:"user,omitempty"`
	Started time.Time `json:"started"`
	// ProcessStart is when the process started, as the system counts it
	// (on Linux, field 22 of /proc/PID/stat: clock ticks since boot); 0 if
	// unknown. With the PID it names one process: a later process given
	// the same PID has another start time.
	ProcessStart uint64 `json:"processStart,omitempty"`
	// Command is what the holder is doing, e.g. "plinth up".
	Command string `json:"command"`
}

// CurrentProcess describes this process as a lock holder running command.
func CurrentProcess(command string) LockHolder {
	host, _ := os.Hostname()
	pid := os.Getpid()
	start, _ := ProcessStartTime(pid)
	return LockHolder{PID: pid, Host: host, User: currentUser(), Started: time.Now().UTC().Truncate(time.Second), ProcessStart: start, Command: command}
}

// currentUser names the user this process runs as, "" if unknown.
func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

func (h LockHolder) String() string {
	if h.PID == 0 && h.Host == "" {
		return "an unknown process"
	}
	s := fmt.Sprintf("process %d", h.PID)
	if h.User != "" {
		s += " of user " + h.User
	}
	s += fmt.Sprintf(" on host %s since %s", h.Host, h.Started.Format(time.RFC3339))
	if h.Command != "" {
		s += fmt.Sprintf(" (%s)", h.Command)
	}
	return s
}

// Liveness says what a backend knows of a lock holder's process.
type Liveness int

// The liveness of a lock holder.
const (
	// LivenessUnknown: the holder runs on another host, is unknown, or
	// this system cannot tell.
	LivenessUnknown Liveness = iota
	// LivenessDead: the holder ran on this host and its process is gone
	// (or its PID now belongs to a process started at another time).
	LivenessDead
	// LivenessAlive: a process with the holder's PID and start time runs
	// on this host.
	LivenessAlive
	// LivenessPIDAlive: a process with the holder's PID runs on this host,
	// but the lock records no start time to tell whether it is the holder.
	LivenessPIDAlive
)

// HolderLiveness says whether the holder of a lock is running, as far as
// this host can tell: the PID must be alive and, when the lock records
// it, the process's start time must match, so that a PID reused by an
// unrelated process is not mistaken for the holder.
func HolderLiveness(h LockHolder) Liveness {
	host, _ := os.Hostname()
	if h.PID <= 0 || h.Host == "" || h.Host != host {
		return LivenessUnknown
	}
	alive, known := processAlive(h.PID)
	switch {
	case !known:
		return LivenessUnknown
	case !alive:
		return LivenessDead
	case h.ProcessStart == 0:
		return LivenessPIDAlive
	}
	start, ok := ProcessStartTime(h.PID)
	switch {
	case !ok:
		return LivenessPIDAlive
	case start != h.ProcessStart:
		return LivenessDead // the PID was reused
	}
	return LivenessAlive
}

// LockedError reports a stack locked by someone else.
type LockedError struct {
	Stack  string
	Holder LockHolder
	// Stale is set when the backend knows the holder is dead: it ran on
	// this host and its process is gone, or its PID now names a process
	// started at another time.
	Stale bool
	// Alive is set when the holder is known to be running on this host.
	Alive bool
}

func (e *LockedError) Error() string {
	switch {
	case e.Stale:
		return fmt.Sprintf("stack %s is locked by %s, which is no longer running; "+
			"run `plinth state unlock --stack %s` to break the lock", e.Stack, e.Holder, e.Stack)
	case e.Alive:
		return fmt.Sprintf("stack %s is locked by %s, which is still running; wait for it to finish", e.Stack, e.Holder)
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
