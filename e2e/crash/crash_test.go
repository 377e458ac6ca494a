package crash_test

import (
	"fmt"
	"testing"
	"time"
)

// kills returns how many kills a test makes: full, or short under -short.
func kills(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestProviderKillsLoseNothing kills the provider process with SIGKILL at
// random moments of up (and of every fifth destroy), at least 40 times,
// and after each kill requires that every object the kill left behind is
// recorded or pending, resolves the pending creates from the ledger as a
// user would, completes the command, and requires ledger and state to
// agree exactly. The last destroy must leave the ledger empty.
func TestProviderKillsLoseNothing(t *testing.T) {
	h := newHarness(t)
	want := kills(40, 12)
	h.writeProgram(0)
	h.window = h.timed("up")
	h.checkAgreement("the first up")
	for gen := 1; h.tally.providerKills+h.tally.destroyKills < want; gen++ {
		if gen > 3*want {
			t.Fatalf("only %d of %d kills landed in %d runs: the kill window (%s) is wrong\n%s", h.tally.providerKills+h.tally.destroyKills, want, gen-1, h.window, h.summary())
		}
		verb := "up"
		if gen%5 == 0 {
			verb = "destroy"
		}
		h.writeProgram(gen)
		h.cycle(gen, verb, theProvider)
	}
	h.finish()
}

// TestPlinthKillsLeaveNoProvider kills plinth itself with SIGKILL at
// random moments of up and requires every provider process it started to
// exit within 5 s; then the stack is recovered as after a provider kill.
func TestPlinthKillsLeaveNoProvider(t *testing.T) {
	h := newHarness(t)
	want := kills(6, 3)
	h.writeProgram(0)
	h.window = h.timed("up")
	h.checkAgreement("the first up")
	var slowest time.Duration
	for gen := 1; h.tally.plinthKills < want; gen++ {
		if gen > 3*want {
			t.Fatalf("only %d of %d kills landed in %d runs\n%s", h.tally.plinthKills, want, gen-1, h.summary())
		}
		h.writeProgram(gen)
		slowest = max(slowest, h.cycle(gen, "up", thePlinth))
	}
	t.Logf("the last provider process was gone %s after plinth was killed (the test kills those alive after 5 s)", slowest.Round(time.Millisecond))
	h.finish()
}

// cycle runs one generation's command with a kill, checks what the kill
// left, recovers like a user and checks again. For a plinth kill it
// returns how long the provider processes outlived plinth.
func (h *harness) cycle(gen int, verb string, v victim) time.Duration {
	h.t.Helper()
	landed, killed := h.killDuring(verb, v)
	if !landed {
		h.tally.misses++
		h.checkAgreement(fmt.Sprintf("%s of generation %d (no kill landed)", verb, gen))
		return 0
	}
	what := fmt.Sprintf("a kill of the provider during %s of generation %d", verb, gen)
	var outlived time.Duration
	switch {
	case v == thePlinth:
		h.tally.plinthKills++
		what = fmt.Sprintf("a kill of plinth during %s of generation %d", verb, gen)
		outlived = h.awaitNoProvider(killed)
		h.must("state", "unlock")
	case verb == "destroy":
		h.tally.destroyKills++
	default:
		h.tally.providerKills++
	}
	h.checkUncertain(what)
	h.resolve()
	h.must(operation(verb)...)
	h.checkAgreement(fmt.Sprintf("%s after %s", verb, what))
	return outlived
}

// finish destroys the stack, requires the ledger to be empty, and prints
// the summary.
func (h *harness) finish() {
	h.t.Helper()
	h.must(operation("destroy")...)
	h.checkAgreement("the last destroy")
	if w := h.world(); len(w.live) > 0 {
		h.t.Errorf("after the last destroy the ledger still holds %d objects (orphans: %v)", len(w.live), sortedKeys(h.tally.orphans))
	}
	h.t.Log(h.summary())
}
