package main

import (
	"cmp"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// target is one of issue 23's goals: a command of a scenario at a size
// within a wall time and, if rss is set, a peak RSS.
type target struct {
	what string // "2,000 TF create"
	size int
	wall time.Duration
	rss  int64
}

// The targets, on a quiet 2-core machine.
var (
	tfCreate      = target{what: "2,000 TF create", size: 2000, wall: time.Second}
	tfPreview     = target{what: "2,000 TF no-change preview", size: 2000, wall: 500 * time.Millisecond}
	pulumiCreate  = target{what: "2,000 Pulumi-protocol create", size: 2000, wall: 500 * time.Millisecond}
	pulumiPreview = target{what: "2,000 Pulumi-protocol no-change preview", size: 2000, wall: 250 * time.Millisecond}
	bigCreate     = target{what: "100k built-in create", size: 100000, wall: 15 * time.Second, rss: 500 << 20}
	bigPreview    = target{what: "100k built-in no-change preview", size: 100000, wall: 3 * time.Second}
)

// verdict is a target's outcome.
type verdict struct {
	text string
	met  bool
}

// judge checks u against t when the scenario ran at t's size, records the
// verdict and returns what to print beside the figure.
func (h *harness) judge(t target, n int, u *usage) string {
	limit := "≤ " + t.wall.String()
	if t.rss > 0 {
		limit += " in ≤ " + megabytes(t.rss)
	}
	if n != t.size {
		return fmt.Sprintf("target %s at %d: not judged", limit, t.size)
	}
	met := u.wall <= t.wall && (t.rss == 0 || u.maxRSS <= t.rss)
	got := round(u.wall)
	if t.rss > 0 {
		got += ", " + megabytes(u.maxRSS)
	}
	return h.record(fmt.Sprintf("%s %s: %s", t.what, limit, got), met)
}

// record keeps a verdict for the closing list and returns its short form.
func (h *harness) record(text string, met bool) string {
	h.verdicts = append(h.verdicts, verdict{text, met})
	if met {
		return "target met"
	}
	return "target NOT met"
}

func (h *harness) printVerdicts() {
	if len(h.verdicts) == 0 {
		return
	}
	fmt.Println("\ntargets (meaningful on a quiet machine only)")
	for _, v := range h.verdicts {
		mark := "NOT met"
		if v.met {
			mark = "met"
		}
		fmt.Printf("  %-8s %s\n", mark, v.text)
	}
}

// row is one line of a scenario's table.
type row struct {
	tool, command string
	u             *usage
	note          string
}

// rows lists a tool's commands, notes (targets) per command name.
func rows(tool string, p usages, notes map[string]string) []row {
	var out []row
	for _, c := range []struct {
		name string
		u    *usage
	}{{"create", p.create}, {"no-op plan", p.preview}, {"destroy", p.destroy}} {
		if c.u != nil {
			out = append(out, row{tool, c.name, c.u, notes[c.name]})
		}
	}
	return out
}

// report prints a scenario's table.
func report(title string, rs []row) {
	fmt.Printf("\n%s\n", title)
	fmt.Printf("%-10s %-11s %10s %10s %13s %10s  %s\n", "tool", "command", "wall", "own CPU", "children CPU", "peak RSS", "")
	for _, r := range rs {
		kids := round(r.u.children)
		if r.u.splitUnknown {
			kids = "?"
		}
		if r.u.orphans > 0 {
			kids += fmt.Sprintf(" (%d orphans)", r.u.orphans)
		}
		fmt.Printf("%-10s %-11s %10s %10s %13s %10s  %s\n", r.tool, r.command,
			round(r.u.wall), round(r.u.self), kids, megabytes(r.u.maxRSS), r.note)
		if s := byProgram(r.u); s != "" {
			fmt.Printf("%23s children: %s\n", "", s)
		}
	}
}

// byProgram lists the children's sampled CPU by program, most first, and
// what the samples missed of the exact total.
func byProgram(u *usage) string {
	if len(u.byProgram) == 0 {
		return ""
	}
	names := slices.Collect(maps.Keys(u.byProgram))
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(u.byProgram[b], u.byProgram[a]) })
	var parts []string
	var sum time.Duration
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %s", name, round(u.byProgram[name])))
		sum += u.byProgram[name]
	}
	if missed := u.children - sum; missed > 0 {
		parts = append(parts, "unattributed "+round(missed))
	}
	return strings.Join(parts, ", ")
}

// ratios prints how many times longer the peer took than plinth (tool
// names its row), and
// how many times more CPU it used with its children (on a loaded machine
// the CPU ratio says more than the wall one).
func ratios(peer, tool string, pl, other usages) {
	wall := func(u *usage) time.Duration { return u.wall }
	cpu := func(u *usage) time.Duration { return u.self + u.children }
	fmt.Printf("%s / %s (wall): %s\n", peer, tool, ratioLine(pl, other, wall))
	fmt.Printf("%s / %s (CPU, own and children's): %s\n", peer, tool, ratioLine(pl, other, cpu))
}

// ratioLine is other's measure over plinth's for each command both ran.
func ratioLine(pl, other usages, measure func(*usage) time.Duration) string {
	var parts []string
	for _, c := range []struct {
		name string
		a, b *usage
	}{{"create", other.create, pl.create}, {"no-op plan", other.preview, pl.preview}, {"destroy", other.destroy, pl.destroy}} {
		if c.a != nil && c.b != nil {
			parts = append(parts, fmt.Sprintf("%s %.1fx", c.name, measure(c.a).Seconds()/measure(c.b).Seconds()))
		}
	}
	return strings.Join(parts, ", ")
}

func megabytes(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// printProfile prints the top functions of plinth's CPU profile of a
// create (-profile): by their own CPU, and plinth's functions by their
// cumulative CPU, which says which part of plinth spent it.
func printProfile(tool string, p usages) {
	if p.profile == "" {
		return
	}
	fmt.Printf("\n%s's own CPU in the create, by function (%s):\n", tool, p.profile)
	flat, err := pprofTop(p.profile, false)
	if err != nil {
		fmt.Println("  go tool pprof:", err)
		return
	}
	printLines(flat, 14, func(string) bool { return true })
	fmt.Printf("%s's own functions by cumulative CPU:\n", tool)
	cum, err := pprofTop(p.profile, true)
	if err != nil {
		fmt.Println("  go tool pprof:", err)
		return
	}
	printLines(cum, 25, func(l string) bool { return strings.Contains(l, "plinth-iac/plinth/") })
	fmt.Printf("%s's own CPU by part (samples under each; the engine's include the parts it calls):\n", tool)
	for _, part := range profileParts {
		share, err := pprofFocus(p.profile, part.focus)
		if err != nil {
			fmt.Println("  go tool pprof:", err)
			return
		}
		fmt.Printf("  %-46s %s\n", part.name, share)
	}
}

// profileParts are the parts of plinth a create's CPU is split into.
var profileParts = []struct{ name, focus string }{
	{"engine (steps, provider calls, state)", "internal/engine"},
	{"Terraform provider client (tfplugin)", "internal/provider/tfplugin"},
	{"  gRPC", "google.golang.org/grpc"},
	{"  msgpack and cty", "go-cty/cty"},
	{"state and journal (internal/state)", "internal/state"},
	{"passphrase key derivation (argon2)", "argon2"},
	{"program evaluation (internal/program)", "internal/program"},
	{"display", "internal/display"},
	{"garbage collection", "runtime.gcBgMarkWorker"},
}

// pprofFocus is the CPU of a profile's samples whose stack holds a
// function matching focus: "120ms, 15.2%".
func pprofFocus(path, focus string) (string, error) {
	out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=1000000", "-focus="+focus, path).Output()
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, "Showing nodes accounting for "); ok {
			share, _, _ := strings.Cut(rest, " of ")
			return share, nil
		}
	}
	return "0", nil
}

// pprofTop is `go tool pprof -top` of a profile, its lines from the
// header ("Total samples") on.
func pprofTop(path string, cum bool) ([]string, error) {
	args := []string{"tool", "pprof", "-top", "-nodecount=400"}
	if cum {
		args = append(args, "-cum")
	}
	out, err := exec.Command("go", append(args, path)...).Output()
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i, l := range lines {
		if strings.Contains(l, "Total samples") {
			return lines[i:], nil
		}
	}
	return lines, nil
}

// printLines prints the header lines of pprof's table and then up to n of
// its rows that keep accepts.
func printLines(lines []string, n int, keep func(string) bool) {
	shown := 0
	for i, l := range lines {
		if i < 3 || (shown < n && keep(l)) {
			fmt.Println("  " + strings.ReplaceAll(l, "github.com/plinth-iac/plinth/", ""))
			if i >= 3 {
				shown++
			}
		}
	}
}
