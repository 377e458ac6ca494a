package statetest

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/plinth-iac/plinth/internal/state"
)

// MemoryBackend is a state.Backend held in memory. It counts what it is
// asked to do, and its hooks let a test delay or fail any write. Set hooks
// before use. It is safe for concurrent use.
type MemoryBackend struct {
	// BeforeAppend, if set, runs before each AppendJournal stores its
	// records; an error fails the append and stores nothing.
	BeforeAppend func(stack string, records [][]byte) error
	// BeforeWriteSnapshot and BeforeTruncate do the same for those writes.
	BeforeWriteSnapshot func(stack string, data []byte) error
	BeforeTruncate      func(stack string) error

	mu     sync.Mutex
	stacks map[string]*memStack
	counts Counts
}

// Counts says how often the backend did each kind of write.
type Counts struct {
	// Appends counts AppendJournal calls that stored records: the syncs a
	// durable backend would do.
	Appends int
	// Records counts the records they stored.
	Records        int
	SnapshotWrites int
	Truncates      int
}

type memStack struct {
	snapshot, secrets []byte
	journal, history  [][]byte
	lock              *memLock
}

type memLock struct {
	holder state.LockHolder
}

var _ state.Backend = (*MemoryBackend)(nil)

// NewMemoryBackend returns an empty backend.
func NewMemoryBackend() *MemoryBackend {
	return &MemoryBackend{stacks: map[string]*memStack{}}
}

// Counts returns the counters so far.
func (m *MemoryBackend) Counts() Counts {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.counts
}

// stack returns the stack's storage, creating it if create is set.
func (m *MemoryBackend) stack(name string, create bool) (*memStack, error) {
	if err := state.ValidateStackName(name); err != nil {
		return nil, err
	}
	s := m.stacks[name]
	if s == nil && create {
		s = &memStack{}
		m.stacks[name] = s
	}
	return s, nil
}

func notExist(stack string, part state.Part) error {
	return fmt.Errorf("stack %s has no %s: %w", stack, part, fs.ErrNotExist)
}

// ReadSnapshot implements state.SnapshotStore.
func (m *MemoryBackend) ReadSnapshot(_ context.Context, stack string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil {
		return nil, err
	}
	if s == nil || s.snapshot == nil {
		return nil, notExist(stack, state.PartSnapshot)
	}
	return bytes.Clone(s.snapshot), nil
}

// WriteSnapshot implements state.SnapshotStore.
func (m *MemoryBackend) WriteSnapshot(_ context.Context, stack string, data []byte) error {
	if m.BeforeWriteSnapshot != nil {
		if err := m.BeforeWriteSnapshot(stack, data); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return err
	}
	s.snapshot = bytes.Clone(data)
	m.counts.SnapshotWrites++
	return nil
}

// AppendJournal implements state.JournalStore.
func (m *MemoryBackend) AppendJournal(_ context.Context, stack string, records [][]byte) error {
	if m.BeforeAppend != nil {
		if err := m.BeforeAppend(stack, records); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return err
	}
	for _, r := range records {
		s.journal = append(s.journal, bytes.Clone(r))
	}
	m.counts.Appends++
	m.counts.Records += len(records)
	return nil
}

// ReadJournal implements state.JournalStore.
func (m *MemoryBackend) ReadJournal(_ context.Context, stack string) (state.JournalRead, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil || s == nil {
		return state.JournalRead{}, err
	}
	out := make([][]byte, len(s.journal))
	for i, r := range s.journal {
		out[i] = bytes.Clone(r)
	}
	return state.JournalRead{Records: out}, nil
}

// TruncateJournal implements state.JournalStore.
func (m *MemoryBackend) TruncateJournal(_ context.Context, stack string) error {
	if m.BeforeTruncate != nil {
		if err := m.BeforeTruncate(stack); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil || s == nil {
		return err
	}
	s.journal = nil
	m.counts.Truncates++
	return nil
}

// Lock implements state.Locker. A MemoryBackend cannot tell whether a
// holder is alive, so it never reports a lock as stale.
func (m *MemoryBackend) Lock(_ context.Context, stack string, holder state.LockHolder) (state.Unlocker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return nil, err
	}
	if s.lock != nil {
		return nil, &state.LockedError{Stack: stack, Holder: s.lock.holder}
	}
	s.lock = &memLock{holder: holder}
	return &memUnlocker{m: m, stack: stack, lock: s.lock}, nil
}

// ForceUnlock implements state.Locker.
func (m *MemoryBackend) ForceUnlock(_ context.Context, stack string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil || s == nil {
		return err
	}
	s.lock = nil
	return nil
}

type memUnlocker struct {
	m     *MemoryBackend
	stack string
	lock  *memLock
}

func (u *memUnlocker) Unlock(context.Context) error {
	u.m.mu.Lock()
	defer u.m.mu.Unlock()
	s := u.m.stacks[u.stack]
	if s == nil || s.lock != u.lock {
		return fmt.Errorf("the lock on stack %s was broken while this command held it", u.stack)
	}
	s.lock = nil
	return nil
}

// ListStacks implements state.StackLister.
func (m *MemoryBackend) ListStacks(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := []string{}
	for n := range m.stacks {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// RemoveStack implements state.StackLister.
func (m *MemoryBackend) RemoveStack(_ context.Context, stack string) error {
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.stacks, stack)
	return nil
}

// ReadSecretsConfig implements state.SecretsConfigStore.
func (m *MemoryBackend) ReadSecretsConfig(_ context.Context, stack string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil {
		return nil, err
	}
	if s == nil || s.secrets == nil {
		return nil, notExist(stack, state.PartSecrets)
	}
	return bytes.Clone(s.secrets), nil
}

// CreateSecretsConfig implements state.SecretsConfigStore.
func (m *MemoryBackend) CreateSecretsConfig(_ context.Context, stack string, data []byte) (bool, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return false, nil, err
	}
	if s.secrets != nil {
		return false, bytes.Clone(s.secrets), nil
	}
	s.secrets = bytes.Clone(data)
	return true, nil, nil
}

// WriteSecretsConfig implements state.SecretsConfigStore.
func (m *MemoryBackend) WriteSecretsConfig(_ context.Context, stack string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return err
	}
	s.secrets = bytes.Clone(data)
	return nil
}

// Describe implements state.Describer.
func (m *MemoryBackend) Describe(stack string, part state.Part) string {
	return fmt.Sprintf("the %s of stack %s (in memory)", part, stack)
}

var _ state.HistoryStore = (*MemoryBackend)(nil)

// AppendHistory implements state.HistoryStore.
func (m *MemoryBackend) AppendHistory(_ context.Context, stack string, record []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, true)
	if err != nil {
		return err
	}
	s.history = append(s.history, bytes.Clone(record))
	return nil
}

// ReadHistory implements state.HistoryStore.
func (m *MemoryBackend) ReadHistory(_ context.Context, stack string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.stack(stack, false)
	if err != nil || s == nil {
		return nil, err
	}
	out := make([][]byte, len(s.history))
	for i, r := range s.history {
		out[i] = bytes.Clone(r)
	}
	return out, nil
}
