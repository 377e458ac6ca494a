package langhost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/registry"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Program runs a Pulumi program as an engine.Program: each Run serves a
// resource monitor over the engine's Monitor and runs the program against
// it. A Program runs any number of times; DryRun gives the variant for
// previews.
type Program struct {
	Project *Project
	Host    Host
	Stack   string
	// Config is the stack's config, keys as written in the stack config
	// files ("key" is the project's, "pkg:key" another namespace's).
	Config map[string]resource.Value
	// Parallel is passed to the program; 0 means the engine's default.
	Parallel int
	// Log receives the program's log messages and warnings; nil drops
	// them.
	Log func(monitor.Log)
	// Stacks reads the stacks the program references (StackReference);
	// nil refuses stack references.
	Stacks monitor.StackReader
	// Stdout and Stderr receive the program's own output (console.log);
	// one with a Flush method is flushed when the program ends;
	// nil drops it.
	Stdout, Stderr io.Writer
	// FailGrace is how long a program has, after one of its registrations
	// failed, to report the failure and exit before it is interrupted; 0
	// means one second.
	FailGrace time.Duration
	// Monitors, if set, lets ServeMonitor find the monitor of the run
	// under way; the program's variants (DryRun) share it.
	Monitors *Monitors

	dryRun bool
}

// Monitors holds the resource monitor of a Program's run under way.
type Monitors struct {
	mu  sync.Mutex
	cur *monitor.Server
}

// serving records the monitor of the run under way (nil: none).
func (m *Monitors) serving(srv *monitor.Server) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur = srv
}

func (m *Monitors) current() *monitor.Server {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur
}

// ServeMonitor is engine.Options.ServeMonitor for the program's
// operations. A component provider's children register through the
// monitor the program's run is serving, as with Pulumi's engine, where
// one monitor serves both: so the program's transforms (the component's
// own, its ancestors' and the stack's) and hooks apply to them, and
// provider references resolve as the program's do. With no run under
// way (or no Monitors), a monitor of their own.
func (p *Program) ServeMonitor(m engine.Monitor) (addr string, stop func(), err error) {
	if srv := p.Monitors.current(); srv != nil {
		return srv.Addr(), func() {}, nil
	}
	srv, err := monitor.Start(m, monitor.Config{Stack: p.Stack, Project: p.Project.Name, Log: p.Log, Stacks: p.Stacks})
	if err != nil {
		return "", nil, err
	}
	return srv.Addr(), srv.Close, nil
}

var _ engine.Program = (*Program)(nil)

// DryRun returns the program for a preview: the program is told that it
// is previewing, as pulumi preview does.
func (p *Program) DryRun() engine.Program {
	c := *p
	c.dryRun = true
	return &c
}

// Run implements engine.Program.
func (p *Program) Run(ctx context.Context, mon engine.Monitor) error {
	srv, err := monitor.Start(mon, monitor.Config{Stack: p.Stack, Project: p.Project.Name, Log: p.Log, Stacks: p.Stacks, Dir: p.Project.Dir})
	if err != nil {
		return err
	}
	defer srv.Close()
	p.Monitors.serving(srv)
	defer p.Monitors.serving(nil)
	cfg, secret, err := p.config()
	if err != nil {
		return err
	}
	parallel := p.Parallel
	if parallel <= 0 {
		parallel = engine.DefaultParallel()
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go p.endAfterFailure(runCtx, stop, srv.Failed())
	runErr := p.Host.Run(runCtx, RunRequest{
		Project: p.Project, Stack: p.Stack, Organization: "organization",
		MonitorAddr: srv.Addr(), EngineAddr: srv.Addr(), Config: cfg, SecretKeys: secret,
		DryRun: p.dryRun, Parallel: parallel, Stdout: orDiscard(p.Stdout), Stderr: orDiscard(p.Stderr),
	})
	flush(p.Stdout)
	flush(p.Stderr)
	return p.failure(ctx, srv, runErr)
}

// flush ends the program's output on w, for a writer that holds back an
// unfinished line (one with a Flush method).
func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// endAfterFailure ends the program once a registration has failed and
// the grace period has passed.
func (p *Program) endAfterFailure(ctx context.Context, stop func(), failed <-chan struct{}) {
	select {
	case <-ctx.Done():
		return
	case <-failed:
	}
	grace := p.FailGrace
	if grace == 0 {
		grace = time.Second
	}
	select {
	case <-ctx.Done():
	case <-time.After(grace):
		stop()
	}
}

// failure explains why a run failed: what the monitor refused first, then
// what the program logged (an unhandled exception with its stack trace),
// then how it exited.
func (p *Program) failure(ctx context.Context, srv *monitor.Server, runErr error) error {
	if runErr == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("the program was interrupted: %w", ctx.Err())
	}
	if err := srv.Err(); err != nil {
		return err
	}
	if logged := srv.LoggedErrors(); len(logged) > 0 {
		return &ProgramError{File: p.Project.File, Messages: logged}
	}
	return runErr
}

// ProgramError is a program that failed after logging why: typically an
// unhandled exception, with the program's stack trace.
type ProgramError struct {
	File     string
	Messages []string
}

func (e *ProgramError) Error() string {
	return strings.Join(e.Messages, "\n")
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// config turns the stack config into Pulumi's form: "project:key" keys,
// string values (JSON for structured ones), secret keys listed apart.
func (p *Program) config() (map[string]string, []string, error) {
	out := make(map[string]string, len(p.Config))
	var secret []string
	for k, v := range p.Config {
		if !strings.Contains(k, ":") {
			k = p.Project.Name + ":" + k
		}
		if v.IsSecret() || v.ContainsSecrets() {
			secret = append(secret, k)
		}
		text, err := configText(v)
		if err != nil {
			return nil, nil, fmt.Errorf("config key %s: %w", k, err)
		}
		out[k] = text
	}
	sort.Strings(secret)
	return out, secret, nil
}

// configText is a config value as Pulumi passes it: a string as itself,
// anything else as JSON.
func configText(v resource.Value) (string, error) {
	v = deepUnsecret(v)
	if v.Kind() == resource.StringKind {
		return v.Str(), nil
	}
	data, err := json.Marshal(plain(v))
	if err != nil {
		return "", err
	}
	return string(data), nil
}

func deepUnsecret(v resource.Value) resource.Value {
	for v.IsSecret() {
		v = v.SecretElement()
	}
	return v
}

// plain converts a config value to JSON data.
func plain(v resource.Value) any {
	v = deepUnsecret(v)
	switch v.Kind() {
	case resource.BoolKind:
		return v.Bool()
	case resource.NumberKind:
		return v.Number()
	case resource.StringKind:
		return v.Str()
	case resource.ArrayKind:
		out := []any{}
		for _, e := range v.Array() {
			out = append(out, plain(e))
		}
		return out
	case resource.ObjectKind:
		out := map[string]any{}
		for k, e := range v.Object() {
			out[k] = plain(e)
		}
		return out
	}
	return nil
}

// HostedProvider is the provider the program's runtime serves itself for
// package pkg (see ProviderHost), as internal/registry starts it: the
// host's command, configured with every stack config value under its
// "project:key" name, as text and still secret if it was, which is how
// Pulumi configures a dynamic provider. ok is false for any other
// package. It is asked only when a resource needs the provider, so a
// program without dynamic resources never depends on it.
func (p *Program) HostedProvider(pkg string) (registry.Hosted, bool, error) {
	ph, ok := p.Host.(ProviderHost)
	if !ok {
		return registry.Hosted{}, false, nil
	}
	cfg, secret, err := p.config()
	if err != nil {
		return registry.Hosted{}, false, err
	}
	cmd, ok, err := ph.Provider(ProviderRequest{Project: p.Project, Package: pkg, Config: cfg, SecretKeys: secret})
	if err != nil || !ok {
		return registry.Hosted{}, false, err
	}
	return registry.Hosted{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Config: providerConfig(cfg, secret)}, true, nil
}

// providerConfig is the stack config as a dynamic provider's Configure
// takes it: each "project:key" a string, secret where the value is.
func providerConfig(cfg map[string]string, secret []string) resource.Object {
	isSecret := make(map[string]bool, len(secret))
	for _, k := range secret {
		isSecret[k] = true
	}
	out := make(resource.Object, len(cfg))
	for k, text := range cfg {
		v := resource.NewString(text)
		if isSecret[k] {
			v = resource.MakeSecret(v)
		}
		out[k] = v
	}
	return out
}
