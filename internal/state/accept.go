package state

import (
	"context"
	"errors"
	"fmt"
)

// Accepted says what AcceptRollback recorded.
type Accepted struct {
	// From is the state's mark before; Recorded the newer one the history
	// held; To the mark the state now has.
	From, Recorded, To Mark
	// Lost describes what the history recorded that the state lacks, as
	// RollbackError.Lost does.
	Lost []string
	// Snapshot is the state accepted.
	Snapshot *Snapshot
}

// AcceptOptions configure AcceptRollback.
type AcceptOptions struct {
	Crypter Crypter
	// History, if set, is recorded in the stack's history.
	History *Operation
}

// AcceptRollback takes a stack's state, older than its history records
// (a *RollbackError), as current from now on (`plinth state
// accept-rollback`): under the lock, it saves the state at a serial above
// the history's and records that in the history, so that later loads
// pass. What the history recorded since is forgotten: the caller shows
// Accepted.Lost so that it can be imported again. A state that is not
// older than its history is refused.
func AcceptRollback(ctx context.Context, b Backend, stack string, opts AcceptOptions) (Accepted, error) {
	if err := ValidateStackName(stack); err != nil {
		return Accepted{}, err
	}
	lock, err := b.Lock(ctx, stack, CurrentProcess("plinth state accept-rollback"))
	if err != nil {
		return Accepted{}, err
	}
	a, err := accept(ctx, b, stack, opts)
	return a, errors.Join(err, lock.Unlock(ctx))
}

func accept(ctx context.Context, b Backend, stack string, opts AcceptOptions) (Accepted, error) {
	st, err := loadUnchecked(ctx, b, stack, OpenOptions{Crypter: opts.Crypter, Verify: true})
	if err != nil {
		return Accepted{}, err
	}
	var re *RollbackError
	if err := checkMark(ctx, b, stack, opts.Crypter, st); !errors.As(err, &re) {
		return Accepted{}, fmt.Errorf("the state of stack %s is at %s, not older than its history records, so there is no rollback to accept (nothing was changed)", stack, st.mark())
	}
	m, err := writeState(ctx, b, stack, st.snapshot, st.mark(), opts.Crypter, opts.History)
	if err != nil {
		return Accepted{}, fmt.Errorf("saving the state of stack %s: %w", stack, err)
	}
	return Accepted{From: st.mark(), Recorded: re.Recorded, To: m, Lost: re.Lost, Snapshot: st.snapshot}, nil
}

// WriteImported makes snap the stack's whole state when the stored state
// cannot be opened (damaged, missing, or older than its history: `plinth
// state import` of a salvaged or repaired file), under the stack's lock,
// at a serial above everything recorded, so that later loads take it as
// current. It waits for the lock as wait says (--lock-timeout).
func WriteImported(ctx context.Context, b Backend, stack string, snap *Snapshot, c Crypter, wait LockWait) error {
	if err := ValidateStackName(stack); err != nil {
		return err
	}
	lock, err := TakeLock(ctx, b, stack, CurrentProcess("plinth state import"), wait)
	if err != nil {
		return err
	}
	_, err = writeState(ctx, b, stack, snap, Mark{}, c, nil)
	return errors.Join(err, lock.Unlock(ctx))
}
