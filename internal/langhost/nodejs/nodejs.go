// Package nodejs runs Pulumi programs written in JavaScript or TypeScript,
// as Pulumi's Node.js language host (pulumi-language-nodejs) does: node
// runs the @pulumi/pulumi package's cmd/run entry from the program's own
// node_modules with the monitor's address, the project, stack and config,
// and that entry loads the program (TypeScript through the package's
// ts-node support). It also serves the program's dynamic providers
// (package pulumi-nodejs, dynamic.go) from the same SDK, which is what
// Pulumi's pulumi-resource-pulumi-nodejs script does.
package nodejs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// Runtime is the runtime name in Pulumi.yaml.
const Runtime = "nodejs"

// runEntry is the @pulumi/pulumi entry that runs a program.
const runEntry = "node_modules/@pulumi/pulumi/cmd/run/index.js"

// ExitLogged is the exit code with which @pulumi/pulumi says it has
// already logged why the program failed.
const ExitLogged = 32

// Host is the Node.js language host.
type Host struct {
	// Node is the node binary; "" finds node on PATH.
	Node string
	// Environ is the environment the program inherits, to which Pulumi's
	// variables are added; nil is os.Environ.
	Environ func() []string
	// Grace is how long an interrupted program has to exit before it is
	// killed; 0 means 5 seconds.
	Grace time.Duration
}

var _ langhost.Host = (*Host)(nil)

// Check implements langhost.Host: @pulumi/pulumi and node must be
// there (in that order: without node_modules, npm install is the fix).
func (h *Host) Check(p *langhost.Project) error {
	if _, err := findRunEntry(p); err != nil {
		return err
	}
	_, err := h.node()
	return err
}

func (h *Host) node() (string, error) {
	if h.Node != "" {
		return h.Node, nil
	}
	path, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("running a Node.js Pulumi program needs node, which is not on PATH; install Node.js (https://nodejs.org) and try again")
	}
	return path, nil
}

// findRunEntry finds @pulumi/pulumi's run entry in the node_modules of
// the program's directory or a parent, as require does.
func findRunEntry(p *langhost.Project) (string, error) { return findEntry(p, runEntry) }

// findEntry finds a file of node_modules, given by its path from the
// directory holding node_modules, in the program's directory or a parent.
func findEntry(p *langhost.Project, entry string) (string, error) {
	for dir := p.Dir; ; {
		path := filepath.Join(dir, entry)
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", &MissingSDKError{Dir: filepath.Dir(p.File)}
}

// MissingSDKError is a program whose @pulumi/pulumi is not installed.
type MissingSDKError struct{ Dir string }

func (e *MissingSDKError) Error() string {
	return fmt.Sprintf("the Node.js program in %s needs the @pulumi/pulumi package, but %s does not exist; run `npm install` in %s first",
		e.Dir, filepath.Join(e.Dir, "node_modules", "@pulumi", "pulumi"), e.Dir)
}

// Run implements langhost.Host.
func (h *Host) Run(ctx context.Context, req langhost.RunRequest) error {
	node, err := h.node()
	if err != nil {
		return err
	}
	entry, err := findRunEntry(req.Project)
	if err != nil {
		return err
	}
	env, err := h.env(req)
	if err != nil {
		return err
	}
	preload, remove, err := writePreload(entry)
	if err != nil {
		return err
	}
	defer remove()
	env = withPreload(env, preload)
	cmd := exec.Command(node, append(nodeArgs(req.Project, env), Args(entry, req)...)...)
	cmd.Dir, cmd.Env = req.Project.Dir, env
	return h.wait(ctx, cmd, req)
}

// Args are the arguments of @pulumi/pulumi's run entry, as Pulumi's
// language host passes them.
func Args(entry string, req langhost.RunRequest) []string {
	args := []string{entry}
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	add("monitor", req.MonitorAddr)
	add("engine", req.EngineAddr)
	add("organization", req.Organization)
	add("project", req.Project.Name)
	add("root-directory", req.Project.Dir)
	add("stack", req.Stack)
	add("pwd", req.Project.Dir)
	if req.DryRun {
		args = append(args, "--dry-run")
	}
	if req.Parallel > 0 {
		// Always, 1 included: the SDK registers one resource at a time
		// only when told --parallel 1.
		add("parallel", strconv.Itoa(req.Parallel))
	}
	main := req.Project.Main
	if main == "" {
		main = "."
	}
	return append(args, main)
}

// semiSpace sizes V8's young generation (MB per semi-space) for the
// program. @pulumi/pulumi allocates a great deal per resource (a stack
// trace and several promises each), and with V8's default the scavenger
// runs so often that it was a fifth of node's time registering 2,000
// resources; at 32 MB node used 12% less CPU. It changes only how much
// memory the young generation may take (3 x 32 MB at most), not what the
// program does. Pulumi's own host passes no such flag.
const semiSpace = "--max-semi-space-size=32"

// nodeArgs are node's options: semiSpace, unless the user sizes the
// semi-space in NODE_OPTIONS (which node would let the command line
// override) or nodeargs, then the runtime option nodeargs, split on
// spaces, which come later and so win.
func nodeArgs(p *langhost.Project, env []string) []string {
	s, _ := p.Options["nodeargs"].(string)
	user := strings.Fields(s)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok && strings.Contains(v, "semi-space") {
			return user
		}
	}
	if strings.Contains(s, "semi-space") {
		return user
	}
	return append([]string{semiSpace}, user...)
}

// env is the program's environment: plinth's, plus the config and the
// TypeScript switches Pulumi's host sets.
func (h *Host) env(req langhost.RunRequest) ([]string, error) {
	cfg, err := langhost.ConfigEnv(req.Config, req.SecretKeys)
	if err != nil {
		return nil, err
	}
	environ := os.Environ
	if h.Environ != nil {
		environ = h.Environ
	}
	env := append(environ(), cfg...)
	ts := true
	if b, ok := req.Project.Options["typescript"].(bool); ok {
		ts = b
	}
	env = append(env, "PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(ts))
	if tsconfig, ok := req.Project.Options["tsconfig"].(string); ok && tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	return env, nil
}

// wait runs cmd until it exits or ctx ends (langhost.RunChild).
func (h *Host) wait(ctx context.Context, cmd *exec.Cmd, req langhost.RunRequest) error {
	cmd.Stdout, cmd.Stderr = req.Stdout, req.Stderr
	err := langhost.RunChild(ctx, cmd, h.Grace, "node for the program in "+req.Project.Dir)
	return exitError(err, req)
}

func exitError(err error, req langhost.RunRequest) error {
	code, ok := langhost.ExitCode(err)
	if !ok {
		return err
	}
	if sig := langhost.KilledBy(err); sig != "" {
		return fmt.Errorf("node, running the program in %s, was killed by %s before it finished", req.Project.Dir, sig)
	}
	return fmt.Errorf("the Node.js program in %s exited with code %d", req.Project.Dir, code)
}
