// Package golang runs Pulumi programs written in Go, as Pulumi's Go
// language host (pulumi-language-go) does: the program's main package is
// built with the go command in the program's directory (or the prebuilt
// binary the runtime option binary names is taken as it is), and the
// binary runs there with the monitor's and engine's addresses, the
// project, stack and config in the environment variables that
// github.com/pulumi/pulumi/sdk/v3/go/pulumi reads (pulumi.Run,
// getEnvInfo in its run.go).
//
// It builds, it does not fetch: the program's module must resolve with
// the go command as the user's environment sets it up (GOFLAGS,
// GOPROXY, the module cache), as for `go build`. A built binary is kept
// in the build directory, one per program directory, so that the go
// command finds it up to date and does not link again for the next
// preview or update; the builds of program directories that no longer
// exist are removed. It serves no provider of its own: Go programs have
// no dynamic providers. The other runtimes (a pulumi-language-<name>
// plugin spoken to over gRPC) are another package's; this one is only
// the built-in stand-in for pulumi-language-go, which the Go module
// proxy does not serve.
package golang

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// Runtime is the runtime name in Pulumi.yaml.
const Runtime = "go"

// ExitLogged is the exit code with which the Go SDK's pulumi.Run says it
// has already logged why the program failed.
const ExitLogged = 32

// Host is the Go language host.
type Host struct {
	// Go is the go command; "" finds go on PATH.
	Go string
	// BuildDir holds the binaries built, one directory per program; ""
	// is <user cache dir>/plinth/go.
	BuildDir string
	// Environ is the environment the build and the program inherit, to
	// which Pulumi's variables are added; nil is os.Environ.
	Environ func() []string
	// Grace is how long an interrupted program has to exit before it is
	// killed; 0 means 5 seconds.
	Grace time.Duration

	mu    sync.Mutex
	built map[string]string // program directory → binary, built by this Host
}

var _ langhost.Host = (*Host)(nil)

// Check implements langhost.Host: it builds the program (or finds the
// prebuilt binary), so that a program that does not compile is reported
// before any operation starts. Run takes the binary built here.
func (h *Host) Check(p *langhost.Project) error {
	_, err := h.binary(p)
	return err
}

// Run implements langhost.Host.
func (h *Host) Run(ctx context.Context, req langhost.RunRequest) error {
	bin, err := h.binary(req.Project)
	if err != nil {
		return err
	}
	env, err := h.env(req)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin)
	cmd.Dir, cmd.Env = programDir(req.Project), env
	cmd.Stdout, cmd.Stderr = req.Stdout, req.Stderr
	err = langhost.RunChild(ctx, cmd, h.Grace, "the Go program "+bin)
	if code, ok := langhost.ExitCode(err); ok {
		return &ExitError{Dir: programDir(req.Project), Code: code, Signal: langhost.KilledBy(err)}
	}
	return err
}

// ExitError is a Go program that exited with a code other than 0: it
// panicked (code 2, its stack trace on stderr), pulumi.Run failed after
// logging why (ExitLogged), or it called os.Exit.
type ExitError struct {
	Dir  string
	Code int
	// Signal names the signal that killed the program, if one did.
	Signal string
}

func (e *ExitError) Error() string {
	if e.Signal != "" {
		return fmt.Sprintf("the Go program in %s was killed by %s before it finished", e.Dir, e.Signal)
	}
	why := ""
	switch e.Code {
	case 2:
		why = " (a panic or a fatal runtime error: the program's stack trace is above)"
	case ExitLogged:
		why = " (the Pulumi SDK logged why above)"
	}
	return fmt.Sprintf("the Go program in %s exited with code %d%s", e.Dir, e.Code, why)
}

// programDir is where the program's main package is: the project
// directory, or main in it.
func programDir(p *langhost.Project) string {
	if p.Main == "" {
		return p.Dir
	}
	return filepath.Join(p.Dir, p.Main)
}

// env is the program's environment: the inherited one less any Pulumi
// variable it had, plus the run's, as the Go SDK reads them.
func (h *Host) env(req langhost.RunRequest) ([]string, error) {
	cfg, err := langhost.ConfigEnv(req.Config, req.SecretKeys)
	if err != nil {
		return nil, err
	}
	env := withoutRunVars(h.environ())
	env = append(env, cfg...)
	env = append(env,
		"PULUMI_MONITOR="+req.MonitorAddr,
		"PULUMI_ENGINE="+req.EngineAddr,
		"PULUMI_PROJECT="+req.Project.Name,
		"PULUMI_STACK="+req.Stack,
		"PULUMI_ORGANIZATION="+req.Organization,
		"PULUMI_ROOT_DIRECTORY="+req.Project.Dir,
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.DryRun),
	)
	if req.Parallel > 0 {
		env = append(env, "PULUMI_PARALLEL="+strconv.Itoa(req.Parallel))
	}
	return env, nil
}

// runVars are the variables through which the SDK learns about its run;
// an inherited one (plinth run from a Pulumi program, say) must not
// leak into this run. PULUMI_PLUGINS would make the program list its
// plugins and exit.
var runVars = []string{"PULUMI_MONITOR", "PULUMI_ENGINE", "PULUMI_PROJECT", "PULUMI_STACK",
	"PULUMI_ORGANIZATION", "PULUMI_ROOT_DIRECTORY", "PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS",
	"PULUMI_DRY_RUN", "PULUMI_PARALLEL", "PULUMI_PLUGINS"}

func withoutRunVars(env []string) []string {
	out := make([]string, 0, len(env)+len(runVars))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !isRunVar(name) {
			out = append(out, kv)
		}
	}
	return out
}

func isRunVar(name string) bool {
	for _, v := range runVars {
		if name == v {
			return true
		}
	}
	return false
}

func (h *Host) environ() []string {
	if h.Environ != nil {
		return h.Environ()
	}
	return os.Environ()
}

// binary returns the program's executable: the runtime option binary
// when it is set, else the program built once by this Host.
func (h *Host) binary(p *langhost.Project) (string, error) {
	dir := programDir(p)
	if name, ok := option(p, "binary"); ok {
		return prebuilt(p, dir, name)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if bin, ok := h.built[dir]; ok {
		return bin, nil
	}
	bin, err := h.build(p, dir)
	if err != nil {
		return "", err
	}
	if h.built == nil {
		h.built = map[string]string{}
	}
	h.built[dir] = bin
	return bin, nil
}

// option is a string runtime option of Pulumi.yaml.
func option(p *langhost.Project, name string) (string, bool) {
	s, ok := p.Options[name].(string)
	return s, ok && s != ""
}

// prebuilt checks the binary the runtime option names, relative to the
// program directory.
func prebuilt(p *langhost.Project, dir, name string) (string, error) {
	bin := name
	if !filepath.IsAbs(bin) {
		bin = filepath.Join(dir, bin)
	}
	info, err := os.Stat(bin)
	if err != nil || info.IsDir() || (runtime.GOOS != "windows" && info.Mode()&0o111 == 0) {
		return "", fmt.Errorf("%s: the runtime option binary names %s, which is not an executable file; build the program there (go build -o %s) or remove the option to let plinth build it", p.File, bin, name)
	}
	return bin, nil
}

// build runs go build in the program directory, its output where the
// runtime option buildTarget says, else in the build directory.
func (h *Host) build(p *langhost.Project, dir string) (string, error) {
	goCmd, err := h.goCommand()
	if err != nil {
		return "", err
	}
	out, err := h.target(p, dir)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(goCmd, "build", "-o", out, ".")
	cmd.Dir, cmd.Env = dir, h.environ()
	if output, err := cmd.CombinedOutput(); err != nil {
		return "", &BuildError{Dir: dir, Output: strings.TrimSpace(string(output)), Err: err}
	}
	return out, nil
}

// BuildError is a Go program that did not build.
type BuildError struct {
	Dir    string
	Output string // what the go command printed
	Err    error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("the Go program in %s does not build (go build: %v):\n%s\nfix it so that `go build` succeeds in %s, and run again", e.Dir, e.Err, e.Output, e.Dir)
}

func (e *BuildError) Unwrap() error { return e.Err }

func (h *Host) goCommand() (string, error) {
	if h.Go != "" {
		return h.Go, nil
	}
	path, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("running a Go Pulumi program needs the go command, which is not on PATH; install Go (https://go.dev/dl) and try again, or build the program yourself and name the binary in Pulumi.yaml (runtime: {name: go, options: {binary: ./program}})")
	}
	return path, nil
}

// target is the path the program is built to: buildTarget (relative to
// the program directory) when set, else a path in the build directory
// fixed for the program directory, so the go command finds the binary
// of the last build and keeps it when nothing changed.
func (h *Host) target(p *langhost.Project, dir string) (string, error) {
	if name, ok := option(p, "buildTarget"); ok {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return name, nil
	}
	base := h.BuildDir
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("finding a directory to build the Go program in %s: %w", dir, err)
		}
		base = filepath.Join(cache, "plinth", "go")
	}
	prune(base)
	sum := sha256.Sum256([]byte(dir))
	entry := filepath.Join(base, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(entry, 0o755); err != nil {
		return "", fmt.Errorf("making the build directory of the Go program in %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(entry, sourceFile), []byte(dir), 0o644); err != nil {
		return "", fmt.Errorf("making the build directory of the Go program in %s: %w", dir, err)
	}
	return filepath.Join(entry, "program"), nil
}

// sourceFile, in a program's build directory, holds the program
// directory it was built from.
const sourceFile = "source"

// prune removes from the build directory the builds of programs whose
// directory no longer exists (a clone removed, a test's temporary
// directory), so that the builds kept are those of programs still
// there. It is best effort: what it cannot read it leaves.
func prune(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(base, e.Name(), sourceFile))
		if err != nil {
			continue
		}
		if _, err := os.Stat(string(src)); errors.Is(err, fs.ErrNotExist) {
			_ = os.RemoveAll(filepath.Join(base, e.Name()))
		}
	}
}
