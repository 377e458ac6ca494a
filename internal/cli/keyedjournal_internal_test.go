package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
)

// secretsStore is a secrets.ConfigStore in memory whose writes fail with
// err when it is set, and which logs what happened in order.
type secretsStore struct {
	mu   *sync.Mutex
	data []byte
	err  error
	log  *[]string
}

func (s *secretsStore) ReadSecretsConfig(context.Context, string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		return nil, fs.ErrNotExist
	}
	return s.data, nil
}

func (s *secretsStore) CreateSecretsConfig(ctx context.Context, stack string, data []byte) (bool, []byte, error) {
	if existing, err := s.ReadSecretsConfig(ctx, stack); err == nil {
		return false, existing, nil
	}
	return true, nil, s.WriteSecretsConfig(ctx, stack, data)
}

func (s *secretsStore) WriteSecretsConfig(_ context.Context, _ string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		*s.log = append(*s.log, "store failed")
		return s.err
	}
	s.data = data
	*s.log = append(*s.log, "stored")
	return nil
}

// logJournal is an engine.Journal that logs each record.
type logJournal struct {
	mu  *sync.Mutex
	log *[]string
}

func (j logJournal) Record(_ context.Context, e *state.Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	*j.log = append(*j.log, fmt.Sprintf("recorded %s", e.Kind))
	return nil
}

// TestKeyedJournalWaitsForANewStacksKey: a new stack's key is derived in
// the background, and the operation's journal holds its first record
// back until the stack's secrets configuration is stored; one that
// cannot be stored fails the record, so no step is recorded, and none
// begun, without the check value that guards the stack's key. The
// derivation is held back until the record is under way: a journal that
// did not wait would log its record first.
func TestKeyedJournalWaitsForANewStacksKey(t *testing.T) {
	storeErr := errors.New("disk full")
	for name, tc := range map[string]struct {
		err     error
		wantErr string
		want    []string
	}{
		"stored":      {nil, "<nil>", []string{"stored", "recorded begin", "recorded end"}},
		"store fails": {storeErr, "Cannot open the stack's secrets: storing the secrets configuration of stack dev: disk full.", []string{"store failed"}},
	} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var log []string
			store := &secretsStore{mu: &mu, err: tc.err, log: &log}
			recording, derive := make(chan struct{}), make(chan struct{})
			c, _, err := secrets.Open(context.Background(), store, "dev", secrets.Options{
				Passphrase: "right", KDF: secrets.KDFParams{Time: 1, Memory: 64, Threads: 1}, Background: true,
				OnDerive: func() { <-derive },
			})
			if err != nil || !c.Fresh() {
				t.Fatalf("Open = %v, Fresh %v; want a new stack's key in the background", err, c.Fresh())
			}
			j := keyedJournal{Journal: logJournal{mu: &mu, log: &log}, c: c}
			done := make(chan error, 1)
			go func() {
				close(recording)
				err := j.Record(context.Background(), &state.Entry{Kind: state.Begin})
				if err == nil {
					err = j.Record(context.Background(), &state.Entry{Kind: state.End})
				}
				done <- err
			}()
			<-recording
			close(derive)
			err = <-done
			if diff := cmp.Diff(tc.wantErr, fmt.Sprint(err)); diff != "" {
				t.Errorf("Record's error (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tc.want, log); diff != "" {
				t.Errorf("what happened (-want +got):\n%s", diff)
			}
		})
	}
}
