package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/langhost/golang"
	"github.com/plinth-iac/plinth/internal/langhost/nodejs"
	"github.com/plinth-iac/plinth/internal/langhost/runtime"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The Pulumi front end: a directory with a Pulumi.yaml (and no
// plinth.yaml) holds a Pulumi program in a general-purpose language,
// run through internal/langhost against the engine's resource monitor.

// hosts are the language runtimes plinth runs: Node.js with plinth's own
// launch, the others (runtime.Runtimes) through Pulumi's language host
// plugins, found as plinth finds providers, with getenv. Go programs run
// through pulumi-language-go when one is installed and otherwise through
// plinth's own runner (goHost), which builds them into
// $PLINTH_HOME/go-builds when PLINTH_HOME is set, else the user's cache
// directory (golang.Host.BuildDir). The language hosts' answers to
// GetRequiredPackages are kept beside them, in langhost-packages
// (runtime.Host.PackagesCache).
func hosts(getenv func(string) string) langhost.Hosts {
	h := langhost.Hosts{nodejs.Runtime: &nodejs.Host{}}
	cache := cacheDir(getenv, "langhost-packages")
	for _, name := range runtime.Runtimes {
		h[name] = &runtime.Host{Runtime: name, Getenv: getenv, PackagesCache: cache}
	}
	var goBuilds string
	if home := getenv("PLINTH_HOME"); home != "" {
		goBuilds = filepath.Join(home, "go-builds")
	}
	h[golang.Runtime] = &goHost{
		plugin:  &runtime.Host{Runtime: golang.Runtime, Getenv: getenv, PackagesCache: cache},
		builtin: &golang.Host{BuildDir: goBuilds},
	}
	return h
}

// cacheDir is $PLINTH_HOME/name, else name in plinth's directory of the
// user's cache, else "" (no cache).
func cacheDir(getenv func(string) string, name string) string {
	if home := getenv("PLINTH_HOME"); home != "" {
		return filepath.Join(home, name)
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "plinth", name)
	}
	return ""
}

// preparePulumi is prepare for a Pulumi program: the project file and its
// runtime's host are checked first, then the secrets and the config of
// both plinth.<stack>.yaml and Pulumi.<stack>.yaml (whose secure: values
// are Pulumi's, see pulumiconfig.go). The host's own needs (node,
// node_modules) are checked only if runsProgram.
func (a *app) preparePulumi(ctx context.Context, view display.View, ws *workspace, runsProgram bool) (*stackRun, error) {
	proj, err := langhost.Load(ws.dir, ws.arg)
	if err != nil {
		return nil, display.Summarise("Cannot read the program", err)
	}
	host, err := hosts(a.env.getenv).For(proj)
	if err == nil && runsProgram {
		err = host.Check(proj)
	}
	if err != nil {
		return nil, display.Summarise("Cannot run the program", err)
	}
	c, err := ws.crypterInBackground(ctx)
	if err != nil {
		return nil, display.Summarise("Cannot open the stack's secrets", err)
	}
	cfg, err := pulumiConfig(ws, proj, c)
	if err != nil {
		return nil, err
	}
	for _, v := range cfg {
		a.scrub.Learn(v)
	}
	prog := &langhost.Program{Project: proj, Host: host, Stack: ws.stack, Config: cfg,
		Log: func(l monitor.Log) { view.Diagnostic(programLog(l)) }, Stdout: a.programOutput(view), Stderr: a.programOutput(view),
		Stacks: stackReader{ws: ws, project: proj.Name}, Monitors: &langhost.Monitors{}}
	src := providerSource(ws.dir, a.env.getenv, a.env.Stderr, a.g.verbose)
	src.Hosted = prog.HostedProvider // dynamic providers (pulumi-nodejs), from the program's own SDK
	return &stackRun{a: a, ws: ws, project: pulumiProject{prog}, pulumi: prog, crypter: c, config: cfg, view: view, source: src}, nil
}

// programOutput is where a Pulumi program's output goes: the
// diagnostics of the Pulumi-style display (outputLines), else straight
// to standard error.
func (a *app) programOutput(view display.View) io.Writer {
	if displayStyle(a.g.dir) != display.StylePulumi {
		return a.env.Stderr
	}
	return &outputLines{view: view}
}

// pulumiConfig reads Pulumi.<stack>.yaml and then plinth.<stack>.yaml;
// a key set in both takes plinth's value; a key set in neither takes the
// default Pulumi.yaml declares, as pulumi gives it. The project's own
// keys are kept without their namespace (project:key is key), as
// plinth's config commands write them.
func pulumiConfig(ws *workspace, proj *langhost.Project, c cipher) (map[string]resource.Value, error) {
	project := proj.Name
	pf, err := ws.pulumiConfigFile()
	if err != nil {
		return nil, err
	}
	values, err := pf.Values(ws.pulumiSecrets(pf, func() (cipher, error) { return c, nil }))
	if err != nil {
		return nil, err
	}
	cfg := make(map[string]resource.Value, len(values))
	for k, v := range values {
		if rest, ok := strings.CutPrefix(k, project+":"); ok && !strings.Contains(rest, ":") {
			k = rest
		}
		cfg[k] = v
	}
	cf, err := ws.configFile()
	if err != nil {
		return nil, err
	}
	own, err := cf.Values(c)
	if err != nil {
		return nil, err
	}
	for k, v := range own {
		cfg[k] = v
	}
	return withDefaults(cfg, proj)
}

// withDefaults adds the project file's config defaults (see
// langhost.Project.ConfigDefaults) for the keys cfg does not set.
func withDefaults(cfg map[string]resource.Value, proj *langhost.Project) (map[string]resource.Value, error) {
	for k, d := range proj.ConfigDefaults {
		if rest, ok := strings.CutPrefix(k, proj.Name+":"); ok && !strings.Contains(rest, ":") {
			k = rest
		}
		if _, set := cfg[k]; set {
			continue
		}
		v, err := resource.FromGo(d)
		if err != nil {
			return nil, fmt.Errorf("%s: the default of config key %s: %w", proj.File, k, err)
		}
		cfg[k] = v
	}
	return cfg, nil
}

// programLog shows a message the program logged.
func programLog(l monitor.Log) display.Diagnostic {
	summary := "Program output"
	switch l.Severity {
	case engine.SeverityWarning:
		summary = "Program warning"
	case engine.SeverityError:
		summary = "Program error"
	}
	return display.Diagnostic{Severity: l.Severity, Summary: summary, Where: string(l.URN), Detail: strings.TrimRight(l.Message, "\n"), Logged: true}
}

// pulumiProviderConfig is the default providers' config of a Pulumi
// program: the stack's PKG:KEY values, as Pulumi reads them.
func pulumiProviderConfig(project string, cfg map[string]resource.Value) func(pkg string) resource.Object {
	return func(pkg string) resource.Object {
		out := resource.Object{}
		for k, v := range cfg {
			if p, key, ok := strings.Cut(k, ":"); ok && p == pkg && p != project {
				out[key] = v
			}
		}
		return out
	}
}

// previewOf is the program to run for a preview: a Pulumi program is told
// it is previewing (pulumi.runtime.isDryRun()).
func previewOf(p engine.Program) engine.Program {
	if d, ok := p.(interface{ DryRun() engine.Program }); ok {
		return d.DryRun()
	}
	return p
}

// errPulumiImport refuses plinth import for a Pulumi program.
var errPulumiImport = display.Errorf("Invalid import", "plinth import adopts a resource into a plinth.yaml program. In a Pulumi program, add the import resource option (`{ import: \"ID\" }`) to the resource and run plinth up.")

// pulumiConfigValue is what plinth config set stores for a Pulumi
// program: the text as given (the program's pulumi.Config parses it).
func pulumiConfigValue(key, text string) program.ConfigValue {
	return program.ConfigValue{Key: key, Value: resource.NewString(text), Declared: true}
}

// pulumiProject is a Pulumi program seen as a project, so that what the
// commands ask of any project (its name, its format, its providers'
// config) has an answer; the program itself is run by langhost.
type pulumiProject struct{ prog *langhost.Program }

var _ project = pulumiProject{}

func (p pulumiProject) Name() string    { return p.prog.Project.Name }
func (p pulumiProject) Terraform() bool { return false }

func (p pulumiProject) Program(_ map[string]resource.Value, opts program.Options) (engine.Program, error) {
	if len(opts.Vars) > 0 || len(opts.VarFiles) > 0 {
		return nil, display.Errorf("Variables not taken", "-var and -var-file set the input variables of a Terraform configuration; a Pulumi program takes its inputs from the stack config. Set them with `plinth config set KEY VALUE`.")
	}
	return p.prog, nil
}

func (p pulumiProject) DefaultProviderConfig(config map[string]resource.Value) func(pkg string) resource.Object {
	return pulumiProviderConfig(p.prog.Project.Name, config)
}

func (p pulumiProject) ParseConfigValue(key, text string) (program.ConfigValue, error) {
	return program.ConfigValue{}, fmt.Errorf("a Pulumi program declares no config types: set %s with `plinth config set`", key)
}

func (pulumiProject) ImportRequest(string, string, string) (engine.ImportRequest, error) {
	return engine.ImportRequest{}, errPulumiImport
}

func (pulumiProject) ImportProgram(map[string]resource.Value, program.Options, string, string, string) (engine.Program, error) {
	return nil, errPulumiImport
}

// goHost runs a Go program as pulumi would, through pulumi-language-go,
// when that host is installed for the program's directory, and through
// plinth's own runner otherwise: the Go module proxy does not serve the
// official host, so most machines have none.
type goHost struct {
	plugin  *runtime.Host
	builtin *golang.Host
}

// pick is the host that runs the project in p.
func (h *goHost) pick(p *langhost.Project) langhost.Host {
	if _, err := h.plugin.Finder(p.Dir).Find(golang.Runtime); err == nil {
		return h.plugin
	}
	return h.builtin
}

func (h *goHost) Check(p *langhost.Project) error { return h.pick(p).Check(p) }

func (h *goHost) Run(ctx context.Context, req langhost.RunRequest) error {
	return h.pick(req.Project).Run(ctx, req)
}
