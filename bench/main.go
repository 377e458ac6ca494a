// Command bench is plinth's benchmark harness. It times whole commands the
// way a user runs them (a first `up` that creates every resource, a
// `preview` that finds nothing to do, and a `destroy`) and, for each, the
// CPU of the command itself apart from that of its children (providers,
// language hosts) and the peak RSS, beside the targets of issue 23.
//
//	go run ./bench                          # everything at full size (many minutes)
//	go run ./bench -scenario terraform      # one scenario
//	go run ./bench -n 20                    # everything, small: a smoke test
//	go run ./bench -scenario terraform -profile   # and where plinth's CPU goes
//	go run ./bench -scenario pulumi -peers=false   # plinth alone, no pulumi
//	go run ./bench -scenario terraform -peers=false   # plinth alone, no terraform
//	go run ./bench -agent=false             # every command derives its key
//
// plinth runs with a passphrase (PLINTH_PASSPHRASE) and its key agent on,
// as it is by default at a terminal: each scenario's create makes a new
// stack and derives its key (argon2id), and the preview and destroy after
// it get the key from the agent. With -agent=false every command derives
// it, as in CI; the passphrase scenario shows the difference alone.
//
// Scenarios (-n sets the number of resources of every scenario run; the
// defaults are the sizes the targets are set at). Every pet has a prefix of
// its own, so no two resources have equal inputs:
//
//	terraform  n Terraform resources (n/2 random_pet, n/2 terraform_data
//	           with triggers_replace = its pet) from one Terraform
//	           configuration (main.tf) through the real random provider,
//	           by plinth and, when terraform is on PATH, by terraform on the
//	           same provider binary; create, no-change plan, destroy and
//	           the ratio. Default 2,000. terraform_data is built into both
//	           tools, so the children's CPU is random's alone: the figure
//	           issue 23 set its target on was random_pet + null_resource,
//	           whose provider costs next to nothing (the module proxy does
//	           not serve null, so terraform_data stands in for it).
//	pulumi     n plinth:random:Pet through the built-in provider served
//	           as a Pulumi plugin (pulumi-resource-plinth), by plinth and
//	           by the pulumi CLI on the same plugin binary, create and
//	           no-change preview and the ratios (pulumi's destroy is not
//	           timed). pulumi runs a Pulumi YAML program (runtime: yaml)
//	           with pulumi-language-yaml on its file backend. plinth runs
//	           the pets from plinth YAML (row plinth: the one the targets
//	           judge, as issue 23's baseline was measured before plinth ran
//	           Pulumi YAML) and the Pulumi YAML program through
//	           pulumi-language-yaml as pulumi does (row plinth-pyl, shown
//	           beside it). Default 2,000, which takes pulumi several
//	           minutes.
//	plugin     the pulumi scenario's plinth YAML run alone. Default 2,000.
//	scale      n and 10n plinth:random:Pet from plinth YAML in process
//	           (built-in provider), file backend: create, no-change
//	           preview, destroy, time and peak RSS. Default 10,000 and
//	           100,000.
//	backends   n built-in resources on the file backend and on PostgreSQL
//	           (a throwaway PostgreSQL 15 cluster with fsync on, started
//	           and stopped by the harness; see internal/state/postgres/pgtest).
//	           Default 10,000.
//	all        every scenario above, in that order (the default). A run
//	           already made in the same invocation (scale's and backends'
//	           10,000 on the file backend) is reported, not run again.
//	passphrase n no-change previews of examples/quickstart (default 20)
//	           with PLINTH_PASSPHRASE and with a key file, and of a copy
//	           without its secret: the medians of wall and CPU time show
//	           what deriving the stack's key adds to a command. Not part
//	           of all.
//
// Every column is measured from outside the process, on Linux (see
// measure_linux.go): wall time; its children's CPU (providers, language
// hosts: cutime+cstime of the plinth, terraform or pulumi process, read
// from /proc/<pid>/stat once it has exited and before it is reaped, plus
// any child that outlived it, which the harness adopts as a subreaper);
// the command's own CPU (user+sys of the reap's rusage less its
// children's); and peak RSS (ru_maxrss of the reap: the largest process
// of the tree, which is plinth itself in the built-in scenarios, where it
// starts no child). Beneath each command, its children's CPU by program
// (terraform-provider-random, pulumi-language-yaml, ...), sampled every
// 20 ms from /proc: a lower bound for each, with what the samples missed
// of the exact total shown as unattributed. No engine code helps: the figures hold for any
// version of plinth and for terraform and pulumi alike.
//
// With -profile, every plinth create writes a Go CPU profile
// (PLINTH_CPUPROFILE, see cmd/plinth) and the report prints its top
// functions, flat and cumulative, and its CPU by part of plinth (engine,
// Terraform provider client, gRPC, state, key derivation, program
// evaluation, display, garbage collection) beneath the table: with the children's
// CPU by program, that is the create's CPU split by process. The
// profiler's own cost (about 1%) is in the figures of that run.
//
// Targets are judged only at the size they are set for and printed
// beside the figure; the run ends with every verdict. The targets hold
// for a quiet 2-core machine: on a loaded one the figures mean little.
//
// The Terraform providers are built from the Go module proxy at pinned
// versions (internal/tfproviders), pulumi-language-yaml likewise
// (internal/langhost/runtime/yamltest), and the pulumi CLI is
// $PLINTH_PULUMI_CLI, pulumi on PATH, or built from the module pinned in
// e2e/pulumicli/testdata/climodule; all are cached in the user cache
// directory. plinth and pulumi-resource-plinth are built from this
// checkout. Each command is reported as it starts and when it ends, so a
// long run shows where it is.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 0, "resources per scenario (default: each scenario's target size)")
	scenario := flag.String("scenario", "all", "terraform, pulumi, plugin, scale, backends, passphrase or all")
	keep := flag.Bool("keep", false, "keep the work directory")
	profile := flag.Bool("profile", false, "profile plinth's CPU in every create and print its top functions")
	peers := flag.Bool("peers", true, "run the terraform and pulumi CLIs beside plinth (false: plinth alone, for quick iterations)")
	agent := flag.Bool("agent", true, "run plinth with its key agent on, as at a terminal (false: every command derives the stack's key)")
	flag.Parse()
	if err := run(*scenario, *n, *keep, options{profile: *profile, peers: *peers, agent: *agent}); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// order is the order `all` runs the scenarios in.
var order = []string{"terraform", "pulumi", "plugin", "scale", "backends"}

// options are the command line's switches that reach the harness.
type options struct {
	profile bool // -profile: profile plinth's creates
	peers   bool // -peers: run the terraform and pulumi CLIs for comparison
	agent   bool // -agent: plinth's key agent on
}

func run(scenario string, n int, keep bool, opt options) error {
	work, err := os.MkdirTemp("", "plinth-bench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	if err := os.Mkdir(filepath.Join(work, "xdg"), 0o700); err != nil {
		return err
	}
	if err := becomeSubreaper(); err != nil {
		return fmt.Errorf("becoming a child subreaper (to count the CPU of children that outlive a command): %w", err)
	}
	h := &harness{ctx: context.Background(), work: work, n: n, profile: opt.profile, peers: opt.peers, agent: opt.agent, runs: map[string]usages{}}
	scenarios := map[string]func() error{
		"terraform": h.terraform, "pulumi": h.pulumi, "plugin": h.plugin,
		"scale": h.scale, "backends": h.backends, "passphrase": h.passphrase,
	}
	names := []string{scenario}
	if scenario == "all" {
		names = order
	} else if scenarios[scenario] == nil {
		return fmt.Errorf("unknown scenario %q: use %s, passphrase or all", scenario, strings.Join(order, ", "))
	}
	fmt.Println("building plinth...")
	if err := h.buildPlinth(); err != nil {
		return err
	}
	defer h.stopAgent()
	var failed []string
	for _, name := range names {
		if err := scenarios[name](); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", name, err)
			failed = append(failed, name)
		}
	}
	h.printVerdicts()
	if len(failed) > 0 {
		return fmt.Errorf("scenarios failed: %s", strings.Join(failed, ", "))
	}
	return nil
}

// harness holds what the scenarios share.
type harness struct {
	ctx       context.Context
	work      string
	n         int    // -n; 0 means each scenario's default
	profile   bool   // -profile: profile plinth's creates
	peers     bool   // -peers: run the terraform and pulumi CLIs for comparison
	agent     bool   // -agent: plinth's key agent on
	plinth    string // the plinth binary
	pluginBin string // pulumi-resource-plinth, once built
	runs      map[string]usages
	verdicts  []verdict
}

// size returns -n, or def if it was not given.
func (h *harness) size(def int) int {
	if h.n > 0 {
		return h.n
	}
	return def
}

// repoRoot finds the module root from the working directory.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run the harness from the plinth checkout (go run ./bench)")
	}
	return filepath.Dir(mod), nil
}

// build builds a main package of this module into the work directory.
func (h *harness) build(pkg, name string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(h.work, "bin", name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building %s: %w", pkg, err)
	}
	return out, nil
}

func (h *harness) buildPlinth() (err error) {
	h.plinth, err = h.build("./cmd/plinth", "plinth")
	return err
}

// buildPlugin builds pulumi-resource-plinth once, alone in its directory,
// and runs it from the user cache (keptPlugin).
func (h *harness) buildPlugin() (string, error) {
	if h.pluginBin != "" {
		return h.pluginBin, nil
	}
	bin, err := h.build("./cmd/pulumi-resource-plinth", "plugins/pulumi-resource-plinth")
	if err != nil {
		return "", err
	}
	h.pluginBin = keptPlugin(bin)
	return h.pluginBin, nil
}

// keptPlugin is a copy of the plugin binary bin, alone in a directory of
// the user cache named by its contents' checksum (bin itself if it cannot
// be made): a user runs one installed plugin again and again, and what
// plinth keeps of a binary in the schema cache (its checksum, schema and
// memory) is found by its path, which a fresh work directory would change
// on every run of the harness.
func keptPlugin(bin string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		return bin
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return bin
	}
	sum := sha256.Sum256(b)
	out := filepath.Join(base, "plinth", "bench-plugins", hex.EncodeToString(sum[:8]), filepath.Base(bin))
	if _, err := os.Stat(out); err == nil {
		return out
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return bin
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, b, 0o755); err != nil || os.Rename(tmp, out) != nil {
		os.Remove(tmp)
		return bin
	}
	return out
}

// usage is what one command used.
type usage struct {
	wall           time.Duration
	self, children time.Duration            // CPU, user+sys
	maxRSS         int64                    // bytes
	orphans        int                      // children that outlived the command
	byProgram      map[string]time.Duration // children's CPU by program, sampled
	splitUnknown   bool                     // self holds the children's CPU too
}

// usages are one tool's commands on one scenario.
type usages struct {
	create, preview, destroy *usage
	profile                  string // the create's CPU profile, with -profile
}

// timed runs a command in dir, saying on standard output what it runs
// and, when it ends, how long it took.
func timed(dir string, env []string, name string, args ...string) (*usage, error) {
	fmt.Printf("  %s %s ... ", filepath.Base(name), verb(args))
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	u, err := measure(cmd)
	fmt.Println(round(u.wall))
	if err != nil {
		return nil, fmt.Errorf("%s %v in %s: %w\n%s", filepath.Base(name), args, dir, err, out.tail())
	}
	return &u, nil
}

// verb is a command's arguments up to the first flag ("stack init bench").
func verb(args []string) string {
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			return strings.Join(args[:i], " ")
		}
	}
	return strings.Join(args, " ")
}

// limitedBuffer keeps the last 8 KiB written, for error messages.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 8192 {
		l.b = l.b[len(l.b)-8192:]
	}
	return len(p), nil
}

func (l *limitedBuffer) tail() string { return string(l.b) }

// agentEnv turns plinth's key agent on or off for every command. On, as
// it is by default at a terminal, a create derives its new stack's key
// and hands it to the agent, and the commands after it get the key from
// there; its socket is in the work directory, so the bench uses no agent
// of the user's, and the agent (a daemon, not a child the harness waits
// for: see reapOrphans) is made to forget and exit at the end.
func (h *harness) agentEnv() []string {
	if !h.agent {
		return []string{"PLINTH_KEY_AGENT=off"}
	}
	return []string{"PLINTH_KEY_AGENT=on", "XDG_RUNTIME_DIR=" + filepath.Join(h.work, "xdg")}
}

// stopAgent empties the bench's key agent, which then exits.
func (h *harness) stopAgent() {
	if !h.agent || h.plinth == "" {
		return
	}
	forget := exec.Command(h.plinth, "secrets", "forget")
	forget.Env = append(os.Environ(), h.agentEnv()...)
	_ = forget.Run()
}

// plinthEnv isolates plinth's home and gives it a passphrase, as a user
// with secrets in the stack would. The providers' schema cache is the
// user's (<user cache dir>/plinth/schemas), not the fresh home's, so a
// create is timed as a user's second and later runs see it: with the
// schema of a provider binary it ran before, not asking for it and
// hashing the binary as the very first run does.
func (h *harness) plinthEnv(extra ...string) []string {
	env := []string{"PLINTH_HOME=" + filepath.Join(h.work, "plinth-home"), "PLINTH_PASSPHRASE=bench"}
	env = append(env, h.agentEnv()...)
	if base, err := os.UserCacheDir(); err == nil {
		env = append(env, "PLINTH_SCHEMA_CACHE="+filepath.Join(base, "plinth", "schemas"))
	}
	return append(env, extra...)
}

// plinthPhases runs up, a no-change preview and destroy in project.
func (h *harness) plinthPhases(project string, env []string) (usages, error) {
	var p usages
	var err error
	createEnv := env
	if h.profile {
		createEnv = append(slices.Clip(env), "PLINTH_CPUPROFILE="+filepath.Join(project, "create.pprof"))
	}
	if p.create, err = timed(project, createEnv, h.plinth, "up", "--yes", "--skip-preview"); err != nil {
		return p, err
	}
	if h.profile {
		p.profile = filepath.Join(project, "create.pprof")
	}
	if p.preview, err = timed(project, env, h.plinth, "preview", "--detailed-exitcode"); err != nil {
		return p, fmt.Errorf("the no-change preview found changes or failed: %w", err)
	}
	p.destroy, err = timed(project, env, h.plinth, "destroy", "--yes")
	return p, err
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func round(d time.Duration) string { return d.Round(time.Millisecond).String() }
