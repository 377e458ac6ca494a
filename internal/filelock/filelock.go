// Package filelock takes an exclusive, advisory lock on a file or a
// directory that lasts no longer than the process holding it: on Unix it
// is flock(2), which the kernel releases when the holder exits, however
// it exits (kill -9 included), so no lock is ever left stale.
//
// It serializes cooperating processes (and goroutines: each Lock opens
// the path anew, and flock locks of different opens exclude each other)
// around a short read-modify-write. It is not the state store's lock
// (internal/state/file), which records its holder and is broken by hand;
// it records nothing and is never broken. Where flock is missing
// (Windows, Plan 9) Lock locks nothing.
package filelock

import (
	"context"
	"fmt"
	"os"
	"time"
)

// waitNotice is how long Lock waits before it calls waiting.
const waitNotice = time.Second

// Lock takes the exclusive lock on path, an existing file or directory,
// waiting while another holds it, until ctx ends. If it must wait longer
// than a second, it calls waiting (if set) once, so the command can say
// what it waits for. The returned function releases the lock.
func Lock(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	start, pause, told := time.Now(), time.Millisecond, false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if ok {
			return func() { f.Close() }, nil // closing the last descriptor releases it
		}
		if !told && waiting != nil && time.Since(start) >= waitNotice {
			waiting()
			told = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the lock on %s: %w", path, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}
