// Package clitest runs the plinth command line in process for tests: the
// real command code (internal/cli) against buffers instead of the
// terminal, an environment of the test's choosing, interrupts the test
// sends, and a cheap key derivation so passphrase tests stay fast.
//
// It is used by the command line's own tests and by the end-to-end tests
// of the examples. It does not build a binary; the README test does that
// with `go run`.
package clitest

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
	"github.com/plinth-iac/plinth/internal/state"
)

// Options adjust one run.
type Options struct {
	// Env holds the environment variables the command sees; nothing else
	// is visible to it.
	Env map[string]string
	// Stdin is what the command reads; StdinTerminal pretends it is a
	// terminal (so confirmations are asked).
	Stdin         string
	StdinTerminal bool
	// StdoutTerminal pretends standard output is a terminal (progress
	// bars are drawn).
	StdoutTerminal bool
	// Interrupts, if set, delivers Ctrl-C presses to the command.
	Interrupts chan os.Signal
	// Now is the command's clock; the real one if nil.
	Now func() time.Time
	// Rewrite adjusts engine events before they are shown.
	Rewrite func(*engine.Event)
	// OnDerive, if set, is called as each derivation of a key from a
	// passphrase starts (cli.Env's OnDerive).
	OnDerive func()
	// BeforeConfigWrite, if set, is called with a stack config file's
	// path just before the command writes it (cli.Env's
	// BeforeConfigWrite).
	BeforeConfigWrite func(path string)
	// BeforeMigrateWrite, if set, is called before `state migrate`
	// writes each part of its copy (cli.Env's BeforeMigrateWrite).
	BeforeMigrateWrite func(part state.Part)
	// KeyAgent, if set, is the key agent the command uses (cli.Env's
	// KeyAgent); nil means none, so that every command derives its keys.
	KeyAgent *agent.Client
	// Progress, if set, receives a copy of standard output as it is
	// written, so a test can wait for a step to start.
	Progress io.Writer
}

// Result is what a run did.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Output is stdout and stderr together, for messages that may go to
// either.
func (r Result) Output() string { return r.Stdout + r.Stderr }

// CheapKDF makes passphrase-derived keys fast to compute in tests.
var CheapKDF = secrets.KDFParams{Time: 1, Memory: 64, Threads: 1}

// Run runs `plinth -C dir args...` and returns its exit code and output.
func Run(t testing.TB, dir string, opts Options, args ...string) Result {
	t.Helper()
	var stdout, stderr syncBuffer
	stdout.also = opts.Progress
	env := cli.Env{
		Stdin: strings.NewReader(opts.Stdin), Stdout: &stdout, Stderr: &stderr,
		StdinTerminal: opts.StdinTerminal, StdoutTerminal: opts.StdoutTerminal,
		Getenv:   func(k string) string { return opts.Env[k] },
		Now:      opts.Now,
		KDF:      CheapKDF,
		Rewrite:  opts.Rewrite,
		OnDerive: opts.OnDerive,
		KeyAgent: opts.KeyAgent,

		BeforeConfigWrite:  opts.BeforeConfigWrite,
		BeforeMigrateWrite: opts.BeforeMigrateWrite,
	}
	if opts.Interrupts != nil {
		env.Interrupts = func() (<-chan os.Signal, func()) { return opts.Interrupts, func() {} }
	}
	code := cli.Main(context.Background(), append([]string{"-C", dir}, args...), env)
	return Result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

// MustRun runs a command that must succeed.
func MustRun(t testing.TB, dir string, opts Options, args ...string) Result {
	t.Helper()
	r := Run(t, dir, opts, args...)
	if r.Code != 0 {
		t.Fatalf("plinth %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// syncBuffer is a buffer safe for the concurrent writes of a view and
// its ticker.
type syncBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	also io.Writer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.also != nil {
		s.also.Write(p)
	}
	return s.b.Write(p)
}

// Watch is a Progress writer that a test can wait on.
type Watch struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

// NewWatch returns an empty Watch.
func NewWatch() *Watch { return &Watch{changed: make(chan struct{}, 1)} }

func (w *Watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.b.Write(p)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// WaitFor blocks until what was written contains s, failing the test if
// done closes first.
func (w *Watch) WaitFor(t testing.TB, s string, done <-chan struct{}) {
	t.Helper()
	for {
		w.mu.Lock()
		found := strings.Contains(w.b.String(), s)
		w.mu.Unlock()
		if found {
			return
		}
		select {
		case <-w.changed:
		case <-done:
			t.Fatalf("the command ended before writing %q", s)
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// CopyDir copies a project directory (an example, a testdata program)
// into a new temporary directory and returns it. What earlier runs in the
// source left (.plinth, out, stack config files plinth.<stack>.yaml,
// node_modules) is not copied: the copy starts fresh.
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == ".plinth" || d.Name() == "out" || d.Name() == "node_modules") && rel != "." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "plinth.") && d.Name() != "plinth.yaml" {
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
	return dst
}

// ChangeLines returns the step lines of plain output, trimmed: the lines
// that say what happens to a resource ("~ update note (plinth:fs:File)
// [diff: ~content]"), without titles, property lines, summaries or the
// stack output changes a preview lists under "Outputs:".
func ChangeLines(out string) []string {
	var lines []string
	outputs := false
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, " ") {
			outputs = l == "Outputs:"
		}
		if !outputs && len(l) > 2 && strings.HasPrefix(l, "  ") && strings.ContainsRune("+-~=", rune(l[2])) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return lines
}

// Edit replaces old with new in a project's file, failing the test if
// old is not there.
func Edit(t testing.TB, dir, file, old, new string) {
	t.Helper()
	path := filepath.Join(dir, file)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TerraformEnv returns the environment for running terraform
// non-interactively with the CLI configuration file config and its data
// directory dataDir.
func TerraformEnv(config, dataDir string) []string {
	return append(os.Environ(), "TF_CLI_CONFIG_FILE="+config, "TF_IN_AUTOMATION=1",
		"TF_INPUT=0", "CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+dataDir)
}

// Terraform returns a function running the terraform binary tf in dir
// with env that must succeed, returning its standard output.
func Terraform(t testing.TB, tf, dir string, env []string) func(args ...string) []byte {
	return func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s\n%s", args, err, out, stderr.String())
		}
		return out
	}
}

// pulumiStepLine matches a step line of a Pulumi program's plain output,
// as pulumi writes it when its output is not a terminal: " +  type name
// create", " ~  type name updated (0.05s) [diff: ~content]".
var pulumiStepLine = regexp.MustCompile(`^ (\+-|\+\+|--|[+~=>-] ) \S+ \S+ `)

// pulumiStepDuration is the time in a finished step's line: " (0.05s)".
var pulumiStepDuration = regexp.MustCompile(` \(\d+(\.\d+)?s\)`)

// PulumiStepLines returns the step lines of a Pulumi program's plain
// output, trimmed, without their durations: "~  plinth:fs:File note-file
// update [diff: ~content]".
func PulumiStepLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if pulumiStepLine.MatchString(l) {
			lines = append(lines, strings.TrimSpace(pulumiStepDuration.ReplaceAllString(l, "")))
		}
	}
	return lines
}

// PulumiResources is the last "Resources:" block of a Pulumi program's
// output, its lines trimmed and joined with ", " ("+ 1 created, 4
// unchanged"), or "" when there is none.
func PulumiResources(out string) string {
	i := strings.LastIndex(out, "Resources:\n")
	if i < 0 {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(out[i+len("Resources:\n"):], "\n") {
		if strings.TrimSpace(l) == "" {
			break
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.Join(lines, ", ")
}

// Project is a program's directory and the options plinth runs with
// there, for tests that run many commands on one program.
type Project struct {
	T    testing.TB
	Dir  string
	Opts Options
}

// Run runs plinth in the project, failing the test if it fails.
func (p *Project) Run(args ...string) Result {
	p.T.Helper()
	return MustRun(p.T, p.Dir, p.Opts, args...)
}

// Try runs plinth in the project, whatever its exit code.
func (p *Project) Try(args ...string) Result {
	p.T.Helper()
	return Run(p.T, p.Dir, p.Opts, args...)
}

// Read returns a file of the project's.
func (p *Project) Read(rel string) string {
	p.T.Helper()
	data, err := os.ReadFile(filepath.Join(p.Dir, rel))
	if err != nil {
		p.T.Fatal(err)
	}
	return string(data)
}

// PulumiPreview previews a Pulumi program and checks its step lines (in
// any order, see PulumiStepLines) and the exit code: 0 when want is
// empty, 2 when there are changes.
func (p *Project) PulumiPreview(want ...string) {
	p.T.Helper()
	r := p.Try("preview", "--detailed-exitcode")
	code := 0
	if len(want) > 0 {
		code = 2
	}
	if r.Code != code {
		p.T.Fatalf("preview --detailed-exitcode = %d, want %d\n%s", r.Code, code, r.Output())
	}
	got := PulumiStepLines(r.Stdout)
	sort.Strings(got)
	want = append([]string(nil), want...)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		p.T.Errorf("preview step lines:\n got %q\nwant %q\n%s", got, want, r.Output())
	}
}
