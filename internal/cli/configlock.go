package cli

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/filelock"
)

// A stack's config files (plinth.<stack>.yaml, Pulumi.<stack>.yaml) are
// changed by reading them, changing what was read and writing them back:
// `config set` and `config rm`, the salt line a new passphrase stack's
// first command commits, `stack change-secrets-provider`. Two of those
// at once would each write what it read, and the later write would drop
// the other's change (a value, or the salt line). So each takes the
// lock on the project directory, which holds both files, reads the file
// under it, writes it (atomically, by rename) and only then releases it.
// Commands that only read take no lock: a rename is atomic, so they see
// the file before a change or after it.
//
// The lock is flock(2) on the directory, not a lock file: it adds
// nothing to the user's project, and the kernel releases it when the
// process ends, even by kill -9, so it is never left stale.

// lockConfig takes the lock on the project's stack config files, saying
// on standard error if another command holds it for more than a second.
// Release it with the returned function.
func (w *workspace) lockConfig(ctx context.Context) (unlock func(), err error) {
	unlock, err = filelock.Lock(ctx, w.dir, func() {
		fmt.Fprintf(w.a.env.Stderr, "Waiting for another plinth command to finish writing the stack config files in %s...\n", w.arg)
	})
	if err != nil {
		return nil, fmt.Errorf("locking the stack config files in %s: %w", w.arg, err)
	}
	return unlock, nil
}
