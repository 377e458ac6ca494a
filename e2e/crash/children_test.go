package crash_test

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// The commands plinth runs for the user (plinth:exec:Command, a
// local-exec provisioner) are its children too: killed with plinth, they
// must not make their effects later. Each command below appends to the
// file "effects": "began NAME GEN GROUP SERVER" as it starts (GROUP is
// its process group, SERVER the name of the process that started its
// reaper: plinth, or the provider plugin), then, after a sleep, "gc NAME GEN" from a subshell and
// "done NAME GEN" from the shell itself.

// commandSleep is how long a command sleeps between beginning and its
// effects.
const commandSleep = 500 * time.Millisecond

// commandScript is the shell script of resource name in generation gen.
func commandScript(name string, gen int, sleep time.Duration) string {
	s := strconv.FormatFloat(sleep.Seconds(), 'f', -1, 64)
	return fmt.Sprintf(`G=$(cut -d' ' -f5 /proc/$$/stat); S=$(cat /proc/$(cut -d' ' -f4 /proc/$PPID/stat)/comm); `+
		`echo "began %[1]s %[2]d $G $S" >> effects; `+
		`(sleep %[3]s; echo "gc %[1]s %[2]d" >> effects) & sleep %[3]s; echo "done %[1]s %[2]d" >> effects; wait`, name, gen, s)
}

// commandProgram is a program of n commands run one after the other.
// With plugin set, plinth's provider runs out of process
// (pulumi-resource-plinth), so a command's reaper is the plugin's child.
type commandProgram struct {
	file   string
	write  func(gen, n int, script func(name string) string) string
	plugin bool
}

var commandPrograms = map[string]commandProgram{
	"plinth:exec:Command": {file: "plinth.yaml", write: yamlCommands},
	"local-exec":          {file: "main.tf", write: tfLocalExecs},
}

// usePlinthPlugin makes plinth find its own provider as a plugin.
func (h *harness) usePlinthPlugin() {
	for i, kv := range h.env {
		if strings.HasPrefix(kv, "PLINTH_PLUGIN_PATH=") {
			h.env[i] = "PLINTH_PLUGIN_PATH=" + plinthPluginDir
		}
	}
}

// yamlCommands: plinth:exec:Command resources, replaced in every
// generation (their triggers change).
func yamlCommands(gen, n int, script func(name string) string) string {
	var b strings.Builder
	b.WriteString("name: children\nresources:\n")
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		fmt.Fprintf(&b, "  %s:\n    type: plinth:exec:Command\n    properties:\n      create: %q\n      triggers: [%d]\n", name, script(name), gen)
		if i > 0 {
			fmt.Fprintf(&b, "    options: { dependsOn: [\"${c%d}\"] }\n", i-1)
		}
	}
	return b.String()
}

// tfLocalExecs: terraform_data resources with a local-exec provisioner,
// replaced in every generation.
func tfLocalExecs(gen, n int, script func(name string) string) string {
	var b strings.Builder
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		fmt.Fprintf(&b, "resource \"terraform_data\" %q {\n  triggers_replace = [%d]\n", name, gen)
		if i > 0 {
			fmt.Fprintf(&b, "  depends_on = [terraform_data.c%d]\n", i-1)
		}
		fmt.Fprintf(&b, "  provisioner \"local-exec\" {\n    command = %q\n  }\n}\n", script(name))
	}
	return b.String()
}

// effects reads the effects file: its lines, in order.
func (h *harness) effects() []string {
	h.t.Helper()
	f, err := os.Open(filepath.Join(h.dir, "effects"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// began lists the process groups of the commands of generation gen that
// began.
func began(effects []string, gen int) []int {
	var groups []int
	for _, l := range effects {
		f := strings.Fields(l)
		if len(f) == 5 && f[0] == "began" && f[2] == strconv.Itoa(gen) {
			if g, err := strconv.Atoi(f[3]); err == nil {
				groups = append(groups, g)
			}
		}
	}
	return groups
}

// has reports whether effects holds the line.
func has(effects []string, line string) bool {
	for _, l := range effects {
		if l == line {
			return true
		}
	}
	return false
}

// startCommands writes generation gen and starts up, returning once the
// first command of the generation began.
func (h *harness) startCommands(p commandProgram, gen, n int, sleep time.Duration) *running {
	h.t.Helper()
	return h.startScripts(p, gen, n, func(name string) string { return commandScript(name, gen, sleep) })
}

// startScripts writes generation gen with the given scripts and starts
// up, returning once the first command of the generation began.
func (h *harness) startScripts(p commandProgram, gen, n int, script func(name string) string) *running {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, p.file), []byte(p.write(gen, n, script)), 0o644); err != nil {
		h.t.Fatal(err)
	}
	r, err := start(h.dir, h.env, operation("up")...)
	if err != nil {
		h.t.Fatal(err)
	}
	for deadline := time.Now().Add(commandTimeout); len(began(h.effects(), gen)) == 0; time.Sleep(time.Millisecond) {
		if r.exited() || time.Now().After(deadline) {
			res, _ := r.wait()
			h.t.Fatalf("no command of generation %d began\n%s", gen, res)
		}
	}
	return r
}

// dyingTime is how long after plinth was reaped the harness reads the
// effects that happened before the kill: the reaper learns of plinth's
// death as it dies, and kills the commands' groups at once, but on a
// busy machine a command may be scheduled first. Users look at the world
// much later.
const dyingTime = 100 * time.Millisecond

// killPlinth kills plinth with SIGKILL, waits for it, and returns the
// effects written until it died (dyingTime later).
func (h *harness) killPlinth(r *running) []string {
	r.cmd.Process.Signal(syscall.SIGKILL)
	r.wait()
	time.Sleep(dyingTime)
	return h.effects()
}

// checkNothingLater runs after plinth was killed: it waits past the
// commands' sleep and requires that no command of gen made an effect
// after the kill (before is the effects file when plinth was gone) and
// that no process of their groups still runs.
func (h *harness) checkNothingLater(after string, before []string, gen int, sleep time.Duration) {
	h.t.Helper()
	time.Sleep(sleep + time.Second)
	now := h.effects()
	for _, l := range now[len(before):] {
		h.violation("after %s, %q was written once plinth was dead: a command plinth started outlived it", after, l)
	}
	for _, g := range began(now, gen) {
		if left := groupMembers(g); len(left) > 0 {
			h.tally.survivors += len(left)
			h.violation("after %s, processes %v of a command's group (%d) still run", after, left, g)
			syscall.Kill(-g, syscall.SIGKILL)
		}
	}
}

// TestPlinthKillStopsItsCommands: plinth is killed with SIGKILL while a
// command it runs (a plinth:exec:Command's create, in process and in the
// provider plugin, a local-exec provisioner) sleeps 2 s before its effect
// and its subshell's; neither effect ever happens, and no process of the
// command's group is left.
func TestPlinthKillStopsItsCommands(t *testing.T) {
	programs := maps.Clone(commandPrograms)
	programs["plinth:exec:Command in pulumi-resource-plinth"] = commandProgram{file: "plinth.yaml", write: yamlCommands, plugin: true}
	for name, p := range programs {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			server := "plinth"
			if p.plugin {
				h.usePlinthPlugin()
				server = "pulumi-resource" // as /proc/PID/comm cuts it
			}
			r := h.startCommands(p, 1, 1, 2*time.Second)
			if first := h.effects()[0]; !strings.HasSuffix(first, " "+server) {
				t.Errorf("the command began with %q: its reaper was not started by %s", first, server)
			}
			h.checkNothingLater("a kill of plinth", h.killPlinth(r), 1, 2*time.Second)
		})
	}
}

// TestPlinthKillsStopCommands kills plinth at random moments of an up
// that runs three commands one after the other (plinth:exec:Command
// creates, and local-exec provisioners of terraform_data resources),
// replaced in every generation. After each kill: nothing a command does
// happens once plinth is dead and none of its processes is left; every
// pending create of a command whose effect is absent is cleared (the
// verdict "it was not made"), and the next up completes with every
// command of the generation done.
func TestPlinthKillsStopCommands(t *testing.T) {
	const n = 3
	want := kills(4, 2)
	for name, p := range commandPrograms {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			window := time.Duration(n) * (commandSleep + 200*time.Millisecond)
			madePending := 0
			for gen := 1; h.tally.plinthKills < want; gen++ {
				if gen > 3*want {
					t.Fatalf("only %d of %d kills landed in %d runs", h.tally.plinthKills, want, gen-1)
				}
				r := h.startCommands(p, gen, n, commandSleep)
				time.Sleep(time.Duration(h.rng.Int64N(int64(window))))
				if r.exited() {
					h.tally.misses++
					if res, _ := r.wait(); res.code != 0 {
						t.Fatalf("no kill landed, yet %s", res)
					}
					h.checkCommandsDone(gen, n)
					continue
				}
				before := h.killPlinth(r)
				h.tally.plinthKills++
				what := fmt.Sprintf("a kill of plinth during up of generation %d", gen)
				h.checkNothingLater(what, before, gen, commandSleep)
				h.must("state", "unlock")
				madePending += h.resolveCommands(gen)
				h.must(operation("up")...)
				h.checkCommandsDone(gen, n)
			}
			t.Logf("%s; pending creates whose command had finished: %d", h.summary(), madePending)
		})
	}
}

// resolveCommands plays the user after a kill: a pending create whose
// command left no "done" line was not made, and is cleared; one whose
// command was done is cleared too (a command has no ID to import), and
// counted in made. A terraform_data resource of generation gen recorded
// as created and not tainted although its provisioner never finished is
// a violation: plinth records a resource tainted until its create-time
// provisioners have run, so that the next up replaces and provisions it.
func (h *harness) resolveCommands(gen int) (made int) {
	h.t.Helper()
	effects, s := h.effects(), h.recorded()
	h.tally.pendingSeen += len(s.Pending)
	for _, p := range s.Pending {
		if !isCreate(p.Op) {
			continue
		}
		if has(effects, fmt.Sprintf("done %s %d", resourceName(p.Resource.URN), gen)) {
			made++
		}
		h.must("state", "pending", "--clear", p.Resource.URN, "--yes")
		h.tally.cleared++
	}
	for _, r := range s.Resources {
		if r.Type == "terraform:index:terraform_data" && !r.Tainted && fmt.Sprint(r.Inputs["triggers_replace"]) == fmt.Sprintf("[%d]", gen) &&
			!has(effects, fmt.Sprintf("done %s %d", resourceName(r.URN), gen)) {
			h.violation("after %s, %s is recorded created and not tainted although its local-exec provisioner never finished", fmt.Sprintf("a kill during up of generation %d", gen), r.URN)
		}
	}
	return made
}

// checkCommandsDone requires that every command of generation gen has
// written its "done" and "gc" lines.
func (h *harness) checkCommandsDone(gen, n int) {
	h.t.Helper()
	effects := h.effects()
	for i := range n {
		for _, what := range []string{"done", "gc"} {
			if line := fmt.Sprintf("%s c%d %d", what, i, gen); !has(effects, line) {
				h.violation("after the up of generation %d completed, the effects lack %q", gen, line)
			}
		}
	}
}

// resourceName is the name a URN ends with, without a Terraform
// address's type: c0 for ...::terraform_data.c0 and for ...::c0.
func resourceName(urn string) string {
	name := urn[strings.LastIndex(urn, "::")+2:]
	return name[strings.LastIndex(name, ".")+1:]
}

// groupMembers lists the running (not zombie) processes of a process
// group.
func groupMembers(group int) []int { return clitest.GroupMembers(group) }

// TestInterruptStopsCommands: Ctrl-C (SIGINT, twice, as a user stops a
// plinth:exec:Command in flight; a local-exec stops on the first) sends
// a running command's group SIGTERM, which it may trap to clean up, and
// plinth exits soon after with nothing of the group left.
func TestInterruptStopsCommands(t *testing.T) {
	script := func(gen int) func(string) string {
		return func(name string) string {
			return fmt.Sprintf(`trap 'echo "term %[1]s" >> effects; exit 1' TERM; `+
				`G=$(cut -d' ' -f5 /proc/$$/stat); echo "began %[1]s %[2]d $G -" >> effects; sleep 30 & wait`, name, gen)
		}
	}
	for name, p := range commandPrograms {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			r := h.startScripts(p, 1, 1, script(1))
			interrupted := time.Now()
			for range 2 {
				r.cmd.Process.Signal(syscall.SIGINT)
				time.Sleep(300 * time.Millisecond)
			}
			res, err := r.wait()
			took := time.Since(interrupted)
			if err != nil || res.code == 0 {
				t.Errorf("plinth did not fail as interrupted (%v)\n%s", err, res)
			}
			if took > 5*time.Second {
				t.Errorf("plinth exited %s after the first Ctrl-C, want well under proc.Grace after the second: the command obeys SIGTERM", took.Round(time.Millisecond))
			}
			effects := h.effects()
			if !has(effects, "term c0") {
				t.Errorf("the command was not sent SIGTERM (its trap wrote nothing); effects:\n%s", strings.Join(effects, "\n"))
			}
			for _, g := range began(effects, 1) {
				if left := groupMembers(g); len(left) > 0 {
					t.Errorf("processes %v of the command's group still run after plinth exited", left)
					syscall.Kill(-g, syscall.SIGKILL)
				}
			}
		})
	}
}
