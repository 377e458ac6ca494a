package crash_test

import (
	"os"
	"syscall"
	"time"
)

// victim is what a kill aims at.
type victim int

const (
	theProvider victim = iota
	thePlinth
)

// ledgerSize is the ledger's length in bytes: it grows when a provider
// call takes effect.
func (h *harness) ledgerSize() int64 {
	info, err := os.Stat(h.ledger)
	if err != nil {
		return 0
	}
	return info.Size()
}

// waitForLedger waits until the running command has made its first change
// (the ledger grew), so that a kill lands among provider calls and not in
// start-up. It reports false if the command ended first.
func (h *harness) waitForLedger(r *running, before int64) bool {
	deadline := time.Now().Add(commandTimeout)
	for h.ledgerSize() == before {
		if r.exited() || time.Now().After(deadline) {
			return false
		}
		time.Sleep(500 * time.Microsecond)
	}
	return true
}

// timed runs up or destroy to completion and returns how long it ran after
// its first change: the window in which kills land.
func (h *harness) timed(verb string) time.Duration {
	h.t.Helper()
	r, err := start(h.dir, h.env, operation(verb)...)
	if err != nil {
		h.t.Fatal(err)
	}
	h.waitForLedger(r, h.ledgerSize())
	began := time.Now()
	if res, err := r.wait(); err != nil || res.code != 0 {
		h.t.Fatalf("%v %s\n%s", err, res, h.describe())
	}
	return time.Since(began)
}

// killDuring starts up or destroy and, at a random moment after its first
// change, kills the provider process plinth started or plinth itself with
// SIGKILL. It reports whether a kill landed (false: the command finished
// first, and must then have succeeded). killed is when the kill was sent.
func (h *harness) killDuring(verb string, v victim) (landed bool, killed time.Time) {
	h.t.Helper()
	r, err := start(h.dir, h.env, operation(verb)...)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.waitForLedger(r, h.ledgerSize()) {
		time.Sleep(time.Duration(h.rng.Int64N(int64(h.window))))
		landed = h.kill(r, v)
		killed = time.Now()
	}
	res, err := r.wait()
	if err != nil {
		h.t.Fatalf("after the kill: %v\n%s", err, h.describe())
	}
	if !landed && res.code != 0 {
		h.t.Fatalf("no kill landed, yet %s\n%s", res, h.describe())
	}
	return landed, killed
}

// kill sends SIGKILL to the victim if the command is still running.
func (h *harness) kill(r *running, v victim) bool {
	if r.exited() {
		return false
	}
	if v == thePlinth {
		return r.cmd.Process.Signal(syscall.SIGKILL) == nil
	}
	pids := processes(pluginBinary, r.cmd.Process.Pid)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return len(pids) > 0
}

// awaitNoProvider waits until no process of the test plugin is left, at
// most 5 s after killed. It reports how long the last one lived after
// the kill; the ones still alive after 5 s are counted, reported and
// killed, so that they cannot change the ledger behind the test's back.
func (h *harness) awaitNoProvider(killed time.Time) time.Duration {
	h.t.Helper()
	const limit = 5 * time.Second
	for {
		left := processes(pluginBinary, 0)
		if len(left) == 0 {
			return time.Since(killed)
		}
		if time.Since(killed) > limit {
			h.tally.survivors += len(left)
			h.t.Errorf("%d provider process(es) %v outlived the killed plinth by more than %s", len(left), left, limit)
			h.killAll(left)
			return time.Since(killed)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killAll kills the given test-plugin processes and waits until they are
// gone.
func (h *harness) killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	for deadline := time.Now().Add(10 * time.Second); len(processes(pluginBinary, 0)) > 0; {
		if time.Now().After(deadline) {
			h.t.Fatalf("test plugin processes %v did not die of SIGKILL within 10 s", processes(pluginBinary, 0))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
