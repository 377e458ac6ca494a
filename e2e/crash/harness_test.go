package crash_test

import (
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	thingType = "crash:index:Thing"
	// things is the size of the program; parallel is plinth's -p.
	things   = 48
	parallel = "8"
	// maxDetails bounds the violations reported in full (with the ledger
	// and the state), maxReported those reported at all; the summary
	// counts every one.
	maxDetails  = 4
	maxReported = 25
)

// harness is one project, its ledger and the tally of what the kills did.
type harness struct {
	t      *testing.T
	dir    string
	ledger string
	env    []string
	rng    *mrand.Rand
	tally  tally
	// thing is the type of the resources the ledger holds: thingType,
	// unless a test says otherwise.
	thing string
	// window is how long a command runs once it has written its first
	// ledger line: kills land at a random moment within it.
	window time.Duration
}

// tally counts what the kills did and what went wrong.
type tally struct {
	providerKills, destroyKills, plinthKills, misses int
	pendingSeen, imported, cleared                   int
	// dropped counts objects a kill left neither recorded nor pending
	// (plinth lost track of them); assumedDeleted the recorded objects the
	// ledger shows deleted with no delete pending.
	dropped, assumedDeleted map[string]bool
	// duplicates are URNs with two live objects after a completed
	// command; orphans IDs live but not recorded after a completed
	// command (or dropped by a kill); phantoms IDs recorded after a
	// completed command that the ledger does not hold.
	duplicates, orphans, phantoms map[string]bool
	// survivors counts provider processes alive 5 s after plinth died.
	survivors  int
	violations int
}

func newHarness(t *testing.T) *harness {
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	h := &harness{t: t, dir: dir, ledger: filepath.Join(dir, "ledger"), rng: mrand.New(mrand.NewPCG(seed, 0)), thing: thingType}
	h.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"PLINTH_HOME=" + filepath.Join(dir, "plinth-home"),
		"PULUMI_HOME=" + filepath.Join(dir, "pulumi-home"),
		"PLINTH_PLUGIN_PATH=" + pluginDir,
		"CRASH_LEDGER=" + h.ledger,
	}
	h.tally.dropped, h.tally.assumedDeleted = map[string]bool{}, map[string]bool{}
	h.tally.duplicates, h.tally.orphans, h.tally.phantoms = map[string]bool{}, map[string]bool{}, map[string]bool{}
	if err := os.MkdirAll(filepath.Join(dir, "project"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.dir = filepath.Join(dir, "project")
	return h
}

// writeProgram writes generation gen of the program. From one generation
// to the next every thing is updated (x), about a quarter are replaced
// (k; every third of them deleting first), and a few come and go. Chains
// of four depend on each other through `after`.
func (h *harness) writeProgram(gen int) {
	var b strings.Builder
	b.WriteString("name: crash\nresources:\n")
	prev := ""
	for i := range things {
		name := fmt.Sprintf("r%02d", i)
		if (i*7+gen)%13 == 0 {
			prev = ""
			continue
		}
		fmt.Fprintf(&b, "  %s:\n    type: %s\n    properties: { x: %d, k: %d", name, thingType, gen, (gen+i)/4)
		if i%4 != 0 && prev != "" {
			fmt.Fprintf(&b, ", after: \"${%s.id}\"", prev)
		}
		b.WriteString(" }\n")
		if i%3 == 0 {
			b.WriteString("    options: { deleteBeforeReplace: true }\n")
		}
		prev = name
	}
	if err := os.WriteFile(filepath.Join(h.dir, "plinth.yaml"), []byte(b.String()), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// run runs a plinth command to its end.
func (h *harness) run(args ...string) result {
	h.t.Helper()
	r, err := start(h.dir, h.env, args...)
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := r.wait()
	if err != nil {
		h.t.Fatalf("%v\n%s", err, h.describe())
	}
	return res
}

// must runs a plinth command that has to succeed.
func (h *harness) must(args ...string) result {
	h.t.Helper()
	res := h.run(args...)
	if res.code != 0 {
		h.t.Fatalf("%s\n%s", res, h.describe())
	}
	return res
}

// operation is the command line of up or destroy, run non-interactively.
func operation(verb string) []string {
	return []string{verb, "--yes", "--skip-preview", "-p", parallel}
}

func (h *harness) world() world {
	h.t.Helper()
	w, err := readWorld(h.ledger)
	if err != nil {
		h.t.Fatalf("reading the ledger: %v", err)
	}
	return w
}

func (h *harness) recorded() recorded {
	h.t.Helper()
	s, err := parseRecorded(h.must("state", "export").stdout)
	if err != nil {
		h.t.Fatal(err)
	}
	s.thing = h.thing
	return s
}

// describe is what a failure message shows: the ledger, `plinth state
// ls` and `plinth state pending`.
func (h *harness) describe() string {
	var b strings.Builder
	if w, err := readWorld(h.ledger); err == nil {
		b.WriteString(w.describe())
	}
	for _, args := range [][]string{{"state", "ls"}, {"state", "pending"}} {
		if r, err := start(h.dir, h.env, args...); err == nil {
			res, _ := r.wait()
			fmt.Fprintf(&b, "$ plinth %s (exit %d)\n%s%s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
		}
	}
	return b.String()
}

// violation reports one broken promise: in full (with the ledger and the
// state) for the first few, counted after that.
func (h *harness) violation(format string, args ...any) {
	h.t.Helper()
	h.tally.violations++
	switch n := h.tally.violations; {
	case n <= maxDetails:
		h.t.Errorf(format+"\n%s", append(args, h.describe())...)
	case n <= maxReported:
		h.t.Errorf(format, args...)
	case n == maxReported+1:
		h.t.Errorf("more violations follow; the summary counts them")
	}
}

func (h *harness) summary() string {
	c := h.tally
	return fmt.Sprintf("crash harness: kills=%d (provider during up=%d, provider during destroy=%d, plinth=%d) misses=%d "+
		"pending-seen=%d pending-resolved=%d (imported=%d cleared=%d) dropped=%d assumed-deleted=%d "+
		"duplicates=%d orphans=%d phantoms=%d surviving-providers=%d",
		c.providerKills+c.destroyKills+c.plinthKills, c.providerKills, c.destroyKills, c.plinthKills, c.misses,
		c.pendingSeen, c.imported+c.cleared, c.imported, c.cleared, len(c.dropped), len(c.assumedDeleted),
		len(c.duplicates), len(c.orphans), len(c.phantoms), c.survivors)
}

// sortedKeys lists a set's members in order, for messages.
func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
