package crash_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost/nodejs/nodetest"
)

// A Pulumi JavaScript program whose resources a dynamic provider serves
// (testdata/dynamic): plinth runs the program with node, and hosts the
// provider, node again on the program's own @pulumi/pulumi. Its "cloud"
// is the harness's ledger: create appends `create URN ID X`, update
// `update ID X`, delete `delete ID`, each between two pauses of about
// dynamicDelay so that kills land in the middle of calls; each call
// first appends `begin LINE` to the ledger's .calls file, which tells
// the harness when to kill.

const (
	// dynamicType is the type of every pulumi.dynamic.Resource.
	dynamicType = "pulumi-nodejs:dynamic:Resource"
	// dynamicThings is the size of the program; dynamicDelay the pause
	// (in ms, jittered by half either way) before and after each effect.
	dynamicThings = 8
	dynamicDelay  = 150 * time.Millisecond
	// dynamicParallel is plinth's -p: two calls in flight, begun at
	// different moments, so that a kill finds them at different points
	// of theirs (with more, the creates of an up all begin together).
	dynamicParallel = "2"
	// nodeGrace is how long a node process of the run may outlive plinth.
	nodeGrace = 5 * time.Second
	// providerDyingTime is how long after plinth was reaped the harness
	// reads the ledger as plinth left it. The kernel sends the dynamic
	// provider SIGKILL as plinth dies, before plinth is reaped, so only a
	// write already under way can still land; 100 ms (dyingTime, for a
	// reaper that must react) would hide the late effect of a call that
	// had that little left of its pause.
	providerDyingTime = 20 * time.Millisecond
)

// dynamicThing is one resource of a generation, as the program reads it
// from things.json: a change of X updates it, a change of K replaces it
// (deleting first when DBR is set).
type dynamicThing struct {
	Name string `json:"name"`
	X    int    `json:"x"`
	K    int    `json:"k"`
	DBR  bool   `json:"dbr"`
}

// dynamicScenario is one command the test kills plinth in.
type dynamicScenario struct {
	name string
	verb string
	// spec is the program of round n (nil for destroy).
	spec func(round int) []dynamicThing
}

// dynamicScenarios run in this order in every round: the first up
// creates everything, the edit updates every resource, replaces four
// (two deleting first), adds one and removes one, and destroy deletes
// all.
var dynamicScenarios = []dynamicScenario{
	{name: "up (creates)", verb: "up", spec: createSpec},
	{name: "up (an edit)", verb: "up", spec: editSpec},
	{name: "destroy", verb: "destroy"},
}

// createSpec is the program of a round's first up.
func createSpec(round int) []dynamicThing {
	var spec []dynamicThing
	for i := range dynamicThings {
		spec = append(spec, dynamicThing{Name: fmt.Sprintf("t%d", i), X: 2 * round, DBR: i%2 == 0})
	}
	return spec
}

// editSpec is the program of a round's second up: t0-t3 replaced, the
// others updated, the last removed, and a new one.
func editSpec(round int) []dynamicThing {
	spec := createSpec(round)[:dynamicThings-1]
	for i := range spec {
		spec[i].X++
		if i < 4 {
			spec[i].K = 1
		}
	}
	return append(spec, dynamicThing{Name: fmt.Sprintf("t%d", dynamicThings), X: 2*round + 1})
}

// effects is how many ledger lines a command that moves the stack from
// prev to next writes: one per create, update and delete, two per
// replacement.
func effects(prev, next []dynamicThing) int {
	n := 0
	old := map[string]dynamicThing{}
	for _, t := range prev {
		old[t.Name] = t
	}
	for _, t := range next {
		o, ok := old[t.Name]
		switch {
		case !ok:
			n++
		case o.K != t.K:
			n += 2
		case o.X != t.X:
			n++
		}
		delete(old, t.Name)
	}
	return n + len(old)
}

// dynamicTally counts the kills per scenario and what the node
// processes did after them: how long the dynamic provider and the last
// node process outlived plinth, and the ledger lines written once plinth
// was dead.
type dynamicTally struct {
	kills                         map[string]int
	providerOutlived, programLast time.Duration
	lateLines                     int
}

// TestPlinthKillsDynamicProvider kills plinth with SIGKILL at random
// moments of the up that creates a Pulumi JavaScript program's dynamic
// resources, of the up of an edit that updates, replaces, adds and
// removes them, and of destroy: 4 kills each (2 with -short). After each
// kill: every node process of the run (the program, the dynamic
// provider) is gone within 5 s; every object the ledger holds is
// recorded or pending, every recorded object it lacks has a delete
// pending; the pending creates are imported with the ID the ledger
// shows, or cleared when it shows none, and that verdict holds: the
// ledger is the same when the next command starts as when plinth died.
// The next command then completes with ledger and state equal, and each
// object written with the program's x.
func TestPlinthKillsDynamicProvider(t *testing.T) {
	h := newDynamicHarness(t)
	want := kills(4, 2)
	dt := dynamicTally{kills: map[string]int{}}
	var prev []dynamicThing
	for round := 1; !dt.done(want); round++ {
		if round > 2*want+1 {
			t.Fatalf("only %v of %d kills per scenario landed in %d rounds\n%s", dt.kills, want, round-1, h.summary())
		}
		for _, sc := range dynamicScenarios {
			var next []dynamicThing
			if sc.spec != nil {
				next = sc.spec(round)
				h.writeThings(next)
			}
			what := fmt.Sprintf("%s of round %d", sc.name, round)
			if dt.kills[sc.name] < want && h.dynamicCycle(&dt, sc.verb, effects(prev, next), what) {
				dt.kills[sc.name]++
			} else if dt.kills[sc.name] >= want {
				h.must(dynamicOperation(sc.verb)...)
			}
			h.checkDynamicAgreement(what, next)
			prev = next
		}
	}
	h.awaitNoNode(time.Now())
	t.Logf("%s; kills per scenario %v; dynamic provider gone at most %s after plinth, program at most %s; lines written after plinth died %d",
		h.summary(), dt.kills, dt.providerOutlived.Round(time.Millisecond), dt.programLast.Round(time.Millisecond), dt.lateLines)
}

// done reports whether every scenario had want kills.
func (dt *dynamicTally) done(want int) bool {
	for _, sc := range dynamicScenarios {
		if dt.kills[sc.name] < want {
			return false
		}
	}
	return true
}

// newDynamicHarness is a harness whose project is testdata/dynamic with
// node_modules linked in (installed once by nodetest from the lock files
// of examples/pulumi-dynamic, which hold the same @pulumi/pulumi).
func newDynamicHarness(t *testing.T) *harness {
	modules := nodetest.Modules(t, filepath.Join("..", "..", "examples", "pulumi-dynamic"))
	h := newHarness(t)
	h.thing = dynamicType
	h.env = append(h.env, "PLINTH_PASSPHRASE=crash", "CRASH_DELAY_MS="+strconv.FormatInt(dynamicDelay.Milliseconds(), 10))
	for _, f := range []string{"Pulumi.yaml", "index.js", "package.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "dynamic", f))
		if err == nil {
			err = os.WriteFile(filepath.Join(h.dir, f), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	nodetest.Link(t, h.dir, modules)
	return h
}

// writeThings writes the program's things.json.
func (h *harness) writeThings(spec []dynamicThing) {
	h.t.Helper()
	data, err := json.Marshal(spec)
	if err == nil {
		err = os.WriteFile(filepath.Join(h.dir, "things.json"), data, 0o644)
	}
	if err != nil {
		h.t.Fatal(err)
	}
}

// dynamicCycle runs verb and kills plinth at a random moment of its n
// effects; it reports false if the command finished first (and then
// succeeded). After a kill it checks what the kill left, resolves the
// pending creates as a user would, requires that nothing was written
// once plinth was dead, and runs verb again to completion.
func (h *harness) dynamicCycle(dt *dynamicTally, verb string, n int, what string) bool {
	h.t.Helper()
	r, err := start(h.dir, h.env, dynamicOperation(verb)...)
	if err != nil {
		h.t.Fatal(err)
	}
	if !h.awaitKillPoint(r, n) {
		h.tally.misses++
		if res, err := r.wait(); err != nil || res.code != 0 {
			h.t.Fatalf("no kill landed, yet %v %s\n%s", err, res, h.describe())
		}
		return false
	}
	r.cmd.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	r.wait()
	h.tally.plinthKills++
	what = "a kill of plinth during " + what
	time.Sleep(providerDyingTime)
	atDeath := h.world().lines
	provider, last := h.awaitNoNode(killed)
	dt.providerOutlived, dt.programLast = max(dt.providerOutlived, provider), max(dt.programLast, last)
	h.must("state", "unlock")
	h.checkUncertain(what)
	h.resolve()
	for _, l := range h.world().lines[len(atDeath):] {
		dt.lateLines++
		h.violation("after %s, the ledger line %q was written once plinth was dead: a provider call outlived it, and the verdicts on pending creates may be false", what, l)
	}
	h.must(dynamicOperation(verb)...)
	return true
}

// dynamicOperation is the command line of up or destroy with
// dynamicParallel.
func dynamicOperation(verb string) []string {
	return []string{verb, "--yes", "--skip-preview", "-p", dynamicParallel}
}

// awaitKillPoint waits for a random moment of the running command: once
// the b-th of its n provider calls has begun (b at random, 1 to n), a
// pause shorter than the least that call waits before its effect (half
// dynamicDelay). So every kill finds at least one call that has not made
// its effect, and the others at any point of theirs. It reports false if
// the command ended first.
func (h *harness) awaitKillPoint(r *running, n int) bool {
	calls := h.ledger + ".calls"
	before := lineCount(calls)
	b := 1 + h.rng.IntN(max(n, 1))
	for lineCount(calls) < before+b {
		if r.exited() {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Duration(h.rng.Int64N(int64(dynamicDelay / 2))))
	return !r.exited()
}

// lineCount is how many lines the file holds (0 if there is none).
func lineCount(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte{'\n'})
}

// checkDynamicAgreement runs after a command completed: ledger and state
// agree, and every object of spec was last written with its x (an update
// left pending was made again, not assumed).
func (h *harness) checkDynamicAgreement(after string, spec []dynamicThing) {
	h.t.Helper()
	h.checkAgreement(after)
	w := h.world()
	for _, thing := range spec {
		for _, id := range w.liveOf(dynamicURN(thing.Name)) {
			if got := w.x[id]; got != strconv.Itoa(thing.X) {
				h.violation("after %s completed, %s (%s) was last written with x = %s, want %d", after, thing.Name, id, got, thing.X)
			}
		}
	}
}

// dynamicURN is the URN of the program's resource name.
func dynamicURN(name string) string {
	return "urn:pulumi:dev::dyncrash::" + dynamicType + "::" + name
}

// nodes lists the running node processes of this test's runs (those
// whose environment names its ledger) whose command line holds part.
func (h *harness) nodes(part string) []int {
	var out []int
	mark := []byte("\x00CRASH_LEDGER=" + h.ledger + "\x00")
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range procs {
		exe, err := os.Readlink(filepath.Join(dir, "exe"))
		if err != nil || !strings.HasPrefix(filepath.Base(exe), "node") {
			continue
		}
		env, _ := os.ReadFile(filepath.Join(dir, "environ"))
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		if bytes.Contains(append([]byte{0}, env...), mark) && bytes.Contains(cmdline, []byte(part)) {
			pid, _ := strconv.Atoi(filepath.Base(dir))
			out = append(out, pid)
		}
	}
	return out
}

// awaitNoNode waits until no node process of the run is left, at most
// nodeGrace after since, and reports how long after since the dynamic
// provider was gone, and the last of them. Those alive after nodeGrace
// are counted, reported and killed.
func (h *harness) awaitNoNode(since time.Time) (provider, last time.Duration) {
	h.t.Helper()
	for ; ; time.Sleep(5 * time.Millisecond) {
		if provider == 0 && len(h.nodes("dynamic-provider")) == 0 {
			provider = time.Since(since)
		}
		left := h.nodes("")
		if len(left) == 0 {
			return provider, time.Since(since)
		}
		if time.Since(since) > nodeGrace {
			h.tally.survivors += len(left)
			h.violation("node processes %v of the run (%s) outlived plinth by more than %s", left, h.describeNodes(left), nodeGrace)
			if provider == 0 {
				provider = time.Since(since)
			}
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			for len(h.nodes("")) > 0 {
				time.Sleep(5 * time.Millisecond)
			}
			return provider, time.Since(since)
		}
	}
}

// describeNodes is the command lines of node processes, for messages.
func (h *harness) describeNodes(pids []int) string {
	var lines []string
	for _, pid := range pids {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		lines = append(lines, fmt.Sprintf("%d: %s", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
	}
	return strings.Join(lines, "; ")
}
