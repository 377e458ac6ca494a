// Command bench is plinth's benchmark harness. It times whole commands the
// way a user runs them: a first `up` that creates every resource, a
// `preview` that finds nothing to do, and a `destroy`.
//
//	go run ./bench -scenario terraform          # 200 of each kind, about a minute
//	go run ./bench -scenario terraform -n 1000  # the full size, over ten minutes
//
// Scenarios:
//
//	terraform  n random_pet and n time_static (each triggered by its pet)
//	           through the real Terraform providers, with plinth and, when
//	           terraform is on PATH, with terraform on the same provider
//	           binaries; prints both times and the ratio.
//	pulumi     2n plinth:random:Pet through the built-in provider served
//	           out of process as a Pulumi-protocol plugin.
//	builtin    2n plinth:random:Pet in process.
//	passphrase n no-change previews of examples/quickstart (default 20)
//	           with PLINTH_PASSPHRASE and with a key file, and of a copy
//	           without its secret: the medians of wall and CPU time show
//	           what deriving the stack's key adds to a command.
//
// The providers are built from the Go module proxy at pinned versions
// (internal/tfproviders) and cached; plinth itself is built from this
// checkout. Each command is reported as it starts and when it ends, so a
// long run shows where it is.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

func main() {
	n := flag.Int("n", 0, "resources of each kind (default 200 for terraform, 1000 for the others)")
	scenario := flag.String("scenario", "terraform", "terraform, pulumi, builtin, passphrase or all")
	keep := flag.Bool("keep", false, "keep the work directory")
	flag.Parse()
	if err := run(*scenario, *n, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(scenario string, n int, keep bool) error {
	ctx := context.Background()
	work, err := os.MkdirTemp("", "plinth-bench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	h := &harness{ctx: ctx, work: work, n: n}
	fmt.Println("building plinth...")
	if err := h.buildPlinth(); err != nil {
		return err
	}
	scenarios := map[string]func() error{"terraform": h.terraform, "pulumi": h.pulumi, "builtin": h.builtin, "passphrase": h.passphrase}
	if scenario == "all" {
		for _, name := range []string{"builtin", "pulumi", "terraform"} {
			if err := scenarios[name](); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		return nil
	}
	f, ok := scenarios[scenario]
	if !ok {
		return fmt.Errorf("unknown scenario %q: use terraform, pulumi, builtin, passphrase or all", scenario)
	}
	return f()
}

// harness holds what the scenarios share.
type harness struct {
	ctx    context.Context
	work   string
	n      int    // -n; 0 means each scenario's default
	plinth string // the plinth binary
}

// size returns -n, or def if it was not given.
func (h *harness) size(def int) int {
	if h.n > 0 {
		return h.n
	}
	return def
}

// Default sizes: the Terraform scenario drives two real provider
// processes per tool and runs terraform too, so its default keeps the
// whole run to about a minute; the others are fast at 1000.
const (
	defaultTerraformN = 200
	defaultN          = 1000
)

// repoRoot finds the module root from the working directory.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := string(out[:len(out)-1])
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

// timed runs a command in dir and returns how long it took, saying on
// standard output what it runs and, when it ends, how long it took.
func timed(dir string, env []string, name string, args ...string) (time.Duration, error) {
	fmt.Printf("  %s %s ... ", filepath.Base(name), args[0])
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	fmt.Println(round(took))
	if err != nil {
		return took, fmt.Errorf("%s %v in %s: %w\n%s", filepath.Base(name), args, dir, err, out.tail())
	}
	return took, nil
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

// phases are the timings of one tool on one scenario.
type phases struct {
	create, preview, destroy time.Duration
}

// plinthPhases runs up, a no-change preview and destroy in project.
func (h *harness) plinthPhases(project string, env []string) (phases, error) {
	var p phases
	var err error
	if p.create, err = timed(project, env, h.plinth, "up", "--yes", "--skip-preview"); err != nil {
		return p, err
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

func report(title string, rows map[string]phases, order []string) {
	fmt.Printf("\n%s\n", title)
	fmt.Printf("%-10s %12s %12s %12s\n", "tool", "create", "no-op plan", "destroy")
	for _, name := range order {
		p, ok := rows[name]
		if !ok {
			continue
		}
		fmt.Printf("%-10s %12s %12s %12s\n", name, round(p.create), round(p.preview), round(p.destroy))
	}
}

func round(d time.Duration) string { return d.Round(time.Millisecond).String() }
