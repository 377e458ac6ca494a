package statetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
)

// Processes says how another process reaches a backend, so that Run can
// check locking between processes: a child process (the test binary,
// started again) holds a stack's lock while the test works.
type Processes struct {
	// Address names backend b so that Open, in another process, opens it.
	Address func(b state.Backend) string
	// Open opens the backend at an address.
	Open func(ctx context.Context, addr string) (state.Backend, error)
	// ReleasedOnDeath says that a holder's death frees its lock within
	// seconds (a database session lock). Otherwise the lock stays and
	// must be reported stale.
	ReleasedOnDeath bool
}

// WithProcesses enables the tests that run a second process.
func WithProcesses(p Processes) Option {
	return func(c *config) { c.procs = &p }
}

// WithInterruptedAppend lets Run interrupt an append in the middle of its
// transaction: f starts AppendJournal of records and cuts it off (kills
// its connection) before it commits, returning the append's error. Run
// then checks that none of the batch was stored.
func WithInterruptedAppend(f func(t *testing.T, b state.Backend, stack string, records [][]byte) error) Option {
	return func(c *config) { c.interrupt = f }
}

// The environment of a child started by the process tests.
const (
	childAddrEnv  = "PLINTH_STATETEST_ADDR"
	childStackEnv = "PLINTH_STATETEST_STACK"
	childCommand  = "statetest child"
)

// ChildMain turns the test binary into a lock-holding child when the
// process tests started it: call it first in TestMain. In the parent it
// returns at once. The child locks the stack, prints "locked", and holds
// the lock until its standard input closes.
func ChildMain(p Processes) {
	addr := os.Getenv(childAddrEnv)
	if addr == "" {
		return
	}
	ctx := context.Background()
	b, err := p.Open(ctx, addr)
	if err == nil {
		var u state.Unlocker
		if u, err = b.Lock(ctx, os.Getenv(childStackEnv), state.CurrentProcess(childCommand)); err == nil {
			fmt.Println("locked")
			_, _ = io.Copy(io.Discard, os.Stdin)
			err = u.Unlock(ctx)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "statetest child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// child is a running lock-holding child.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

func startChild(t *testing.T, p *Processes, b state.Backend, stack string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childAddrEnv+"="+p.Address(b), childStackEnv+"="+stack)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	must(t, err)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	c := &child{cmd: cmd, stdin: stdin}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the child process did not take the lock (it printed %q)", line)
	}
	return c
}

// testTwoProcesses checks that a second process is refused a locked stack
// at once, naming the holder, and may lock another stack meanwhile.
func (c config) testTwoProcesses(t *testing.T, b state.Backend) {
	if c.procs == nil {
		t.Skip("the backend cannot be reached from another process")
	}
	ctx := context.Background()
	ch := startChild(t, c.procs, b, "dev")
	start := time.Now()
	_, err := b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	var locked *state.LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("locking a stack another process holds: error = %v, want a *state.LockedError", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the refusal took %v, want it at once", took)
	}
	host, _ := os.Hostname()
	got := []any{locked.Holder.PID, locked.Holder.Host, locked.Holder.Command, locked.Holder.Started.IsZero()}
	if diff := cmp.Diff([]any{ch.cmd.Process.Pid, host, childCommand, false}, got); diff != "" {
		t.Errorf("the refusal names the holder (-want +got):\n%s", diff)
	}
	u, err := b.Lock(ctx, "prod", state.CurrentProcess("plinth up"))
	must(t, err)
	must(t, b.AppendJournal(ctx, "prod", records("while dev is locked")))
	must(t, u.Unlock(ctx))
	must(t, ch.stdin.Close())
	must(t, ch.cmd.Wait())
	u, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	must(t, err)
	must(t, u.Unlock(ctx))
}

// testHolderDeath kills a process holding a lock with SIGKILL: the lock
// must be free within seconds, or reported stale.
func (c config) testHolderDeath(t *testing.T, b state.Backend) {
	if c.procs == nil {
		t.Skip("the backend cannot be reached from another process")
	}
	ctx := context.Background()
	ch := startChild(t, c.procs, b, "dev")
	must(t, ch.cmd.Process.Signal(syscall.SIGKILL))
	_ = ch.cmd.Wait()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var u state.Unlocker
		if u, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth up")); err == nil {
			if !c.procs.ReleasedOnDeath {
				t.Fatal("a lock left by a killed process vanished")
			}
			must(t, u.Unlock(ctx))
			return
		}
		if !c.procs.ReleasedOnDeath {
			break
		}
	}
	var locked *state.LockedError
	switch {
	case c.procs.ReleasedOnDeath:
		t.Fatalf("the lock of a process killed with SIGKILL is still held 10 s later: %v", err)
	case !errors.As(err, &locked) || !locked.Stale:
		t.Fatalf("the lock of a killed process: error = %v, want a stale *state.LockedError", err)
	}
}

// testInterruptedAppend checks that an append cut off mid-transaction
// stores none of its batch, and that the journal takes appends after it.
func (c config) testInterruptedAppend(t *testing.T, b state.Backend) {
	if c.interrupt == nil {
		t.Skip("the backend's appends cannot be interrupted mid-transaction")
	}
	ctx := context.Background()
	must(t, b.AppendJournal(ctx, "dev", records("a", "b")))
	if err := c.interrupt(t, b, "dev", records("c", "d", "e", "f")); err == nil {
		t.Fatal("the interrupted append reported success")
	}
	if diff := cmp.Diff([]string{"a", "b"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal after an interrupted batch (-want +got):\n%s", diff)
	}
	must(t, b.AppendJournal(ctx, "dev", records("g")))
	if diff := cmp.Diff([]string{"a", "b", "g"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal after the next append (-want +got):\n%s", diff)
	}
}
