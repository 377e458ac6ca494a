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

// EncodeInPlaceForTest encodes s with the lineage, serial and sequence of
// the snapshot stored in data: what damage to a snapshot's content that
// leaves its mark alone looks like.
func EncodeInPlaceForTest(s *Snapshot, data []byte) ([]byte, error) {
	d, err := decodeSnapshot(data, nil, false)
	if err != nil {
		return nil, err
	}
	return encodeSnapshot(s, d.mark(), nil)
}
