package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// upInBackground starts `plinth up --yes` and waits until the nap is in
// flight. It returns the interrupt channel and the result, ready once
// done closes.
func upInBackground(t *testing.T, dir string) (chan os.Signal, *clitest.Result, chan struct{}) {
	t.Helper()
	interrupts := make(chan os.Signal, 2)
	watch := clitest.NewWatch()
	done := make(chan struct{})
	var res clitest.Result
	go func() {
		defer close(done)
		res = clitest.Run(t, dir, clitest.Options{Interrupts: interrupts, Progress: watch}, "up", "--yes")
	}()
	watch.WaitFor(t, "+ creating nap", done)
	return interrupts, &res, done
}

// TestConcurrentUpAndDoubleInterrupt runs two `up` on one stack: the
// second fails at once naming the first. Two Ctrl-C stop the first's
// minute-long nap mid-call; it exits with the state saved and nothing
// after the nap started. A create cut short may have happened, so the
// nap's create is left pending; once it is cleared, the next `up`
// finishes the job.
func TestConcurrentUpAndDoubleInterrupt(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "slow"))
	interrupts, first, done := upInBackground(t, dir)

	second := clitest.Run(t, dir, clitest.Options{}, "up", "--yes")
	if second.Code != 1 || !strings.Contains(second.Stderr, "Stack is locked") || !strings.Contains(second.Stderr, "(plinth up)") {
		t.Errorf("second up: exit %d, want 1 naming the holder\n%s", second.Code, second.Output())
	}

	interrupts <- os.Interrupt
	interrupts <- os.Interrupt
	<-done
	if first.Code != 1 || !strings.Contains(first.Stdout, "Interrupted again") || strings.Contains(first.Stdout, "+ created nap") {
		t.Errorf("first up after two interrupts: exit %d, want 1 with the nap stopped\n%s", first.Code, first.Output())
	}
	const nap = "urn:pulumi:dev::slow::plinth:time:Sleep::nap"
	if out := clitest.MustRun(t, dir, clitest.Options{}, "state", "pending").Stdout; !strings.Contains(out, "create "+nap) {
		t.Errorf("state pending after a create was cut short: want the nap's create\n%s", out)
	}
	clitest.MustRun(t, dir, clitest.Options{}, "state", "pending", "--clear", nap, "--yes")
	interruptedCleanly(t, dir)
}

// TestSingleInterrupt: after one Ctrl-C no new step starts, the state is
// saved and the stack unlocked. (What becomes of the nap in flight is
// the engine's and the provider's business: the engine asks providers to
// cancel, and the built-in sleep stops.)
func TestSingleInterrupt(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "slow"))
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "wait", "2s")
	interrupts, first, done := upInBackground(t, dir)
	interrupts <- os.Interrupt
	<-done
	if first.Code != 1 || !strings.Contains(first.Stdout, "Interrupted: no new steps will start") {
		t.Errorf("up after one interrupt: exit %d, want 1\n%s", first.Code, first.Output())
	}
	// One Ctrl-C lets the step in flight finish, and records it.
	if ls := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls"); !strings.Contains(ls.Stdout, "plinth:time:Sleep::nap") {
		t.Errorf("the nap in flight at the interrupt was not recorded:\n%s", ls.Stdout)
	}
	interruptedCleanly(t, dir)
}

// interruptedCleanly checks what an interrupted `up` of testdata/slow
// leaves: no file made after the nap, a consistent and unlocked state,
// and a stack the next `up` completes.
func interruptedCleanly(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "out", "after.txt")); !os.IsNotExist(err) {
		t.Errorf("the file after the nap was created after an interrupt (err %v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".plinth", "stacks", "dev", "lock")); !os.IsNotExist(err) {
		t.Errorf("the interrupted up left its lock (err %v)", err)
	}
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "wait", "0s")
	clitest.MustRun(t, dir, clitest.Options{}, "up", "--yes")
	if _, err := os.Stat(filepath.Join(dir, "out", "after.txt")); err != nil {
		t.Errorf("up after the interrupt did not finish: %v", err)
	}
}
