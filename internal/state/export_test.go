package state

// Hooks for the external tests in package state_test.

// QueuedForTest returns how many records wait for the writer.
func (s *Session) QueuedForTest() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue.records)
}

// CrashForTest stops the session as a killed process would: whatever was
// appended stays in the journal, nothing is compacted, the lock stays.
func (s *Session) CrashForTest() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	<-s.writerDone
}
