//go:build unix

package filelock_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/filelock"
)

// TestLockExcludes: goroutines that each increment a counter in two
// steps under the lock never interleave, and a waiter gives up when its
// context ends.
func TestLockExcludes(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	inside, most := 0, 0
	var mu sync.Mutex
	for range 8 {
		wg.Go(func() {
			unlock, err := filelock.Lock(context.Background(), dir, nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond) // let another try to enter
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		})
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d goroutines held the lock at once, want 1", most)
	}
	unlock, err := filelock.Lock(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := filelock.Lock(ctx, dir, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Lock of a held lock = %v, want it to end with its context", err)
	}
}
