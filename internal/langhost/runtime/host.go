package runtime

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/plugin"
)

// Runtimes are the runtimes plinth runs through Pulumi's language hosts.
// Go is among them: a pulumi-language-go that is installed runs Go
// programs until plinth's own Go runner (internal/langhost/golang) takes
// the runtime over.
var Runtimes = []string{"yaml", "python", "dotnet", "java", "go"}

// Host runs the programs of one runtime through its language host: a
// plugin process for each run, ended with it.
type Host struct {
	// Runtime is the runtime's name in Pulumi.yaml.
	Runtime string
	// Getenv reads plinth's environment variables (where plugins are,
	// PATH, the handshake timeout); a variable it does not set is read
	// from the process's environment.
	Getenv func(string) string
	// Environ is the environment the plugin inherits, to which the
	// variables of passed take Getenv's values; os.Environ if nil.
	Environ func() []string
	// Home is the user's home directory; os.UserHomeDir's if "".
	Home string
	// PackagesCache is the directory where the host's answers to
	// GetRequiredPackages are kept for a program that has not changed
	// (see packagesCache); "" asks the host every run.
	PackagesCache string
}

// passed are the variables the plugin takes from Getenv rather than the
// process: where it finds programs and Pulumi's plugins, so that it finds
// what plinth found.
var passed = []string{"PATH", "PULUMI_HOME", "PULUMI_IGNORE_AMBIENT_PLUGINS"}

var _ langhost.Host = (*Host)(nil)

// New returns the host of a runtime, looking in this process's
// environment.
func New(runtime string) *Host { return &Host{Runtime: runtime} }

// Finder is where the host looks for its plugin for a project in dir.
func (h *Host) Finder(dir string) Finder {
	env := plugin.DefaultEnv(dir)
	env.Getenv = func(k string) string { return Getenv(h.Getenv, k) }
	if h.Home != "" {
		env.Home = h.Home
	}
	return Finder{Env: env}
}

// Check implements langhost.Host: the language host must be installed.
// What the program itself needs (an interpreter, its SDK) the plugin
// checks when it runs it.
func (h *Host) Check(p *langhost.Project) error {
	_, err := h.Finder(p.Dir).Find(h.Runtime)
	return err
}

// Run implements langhost.Host: it starts the plugin with the engine
// service's address, hands it the program, waits for the run, and ends
// the plugin.
func (h *Host) Run(ctx context.Context, req langhost.RunRequest) error {
	c, err := h.Start(ctx, req.Project, req.EngineAddr, req.Stdout, req.Stderr)
	if err != nil {
		return err
	}
	defer c.Close()
	info := Info(req.Project)
	if err := c.Handshake(ctx, info); err != nil {
		return err
	}
	if LoadsSchemas[h.Runtime] {
		if err := checkProviders(ctx, c, packagesCache{dir: h.PackagesCache, runtime: h.Runtime}, info, h.Finder(req.Project.Dir).Env, req.Project); err != nil {
			return err
		}
	}
	return c.Run(ctx, RunRequest{Info: info, MonitorAddr: req.MonitorAddr,
		Project: req.Project.Name, Stack: req.Stack, Organization: req.Organization,
		Config: req.Config, SecretKeys: req.SecretKeys, DryRun: req.DryRun, Parallel: req.Parallel})
}

// Start starts the project's language host, for the protocol's other
// calls (RequiredPackages, InstallDependencies); the caller closes it.
func (h *Host) Start(ctx context.Context, p *langhost.Project, engineAddr string, stdout, stderr io.Writer) (*Client, error) {
	f := h.Finder(p.Dir)
	path, err := f.Find(h.Runtime)
	if err != nil {
		return nil, err
	}
	timeout, err := plugin.HandshakeTimeout(h.getenv)
	if err != nil {
		return nil, err
	}
	return Start(ctx, Config{Runtime: h.Runtime, Path: path, EngineAddr: engineAddr, Dir: p.Dir,
		Env: h.env(f.Env), StartTimeout: timeout, Output: lines(stdout, stderr)})
}

func (h *Host) getenv(k string) string { return Getenv(h.Getenv, k) }

// env is the plugin's environment: plinth's, with the directories of the
// providers plinth finds put first on PATH.
func (h *Host) env(penv plugin.Env) []string {
	environ := os.Environ
	if h.Environ != nil {
		environ = h.Environ
	}
	env := environ()
	for _, k := range passed {
		if v := h.getenv(k); v != "" {
			env = setenv(env, k, v)
		}
	}
	return withPath(env, PluginDirs(penv))
}

// setenv sets k to v in env.
func setenv(env []string, k, v string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, k+"=") {
			out = append(out, kv)
		}
	}
	return append(out, k+"="+v)
}

// withPath puts dirs before the PATH of env.
func withPath(env, dirs []string) []string {
	if len(dirs) == 0 {
		return env
	}
	out := make([]string, 0, len(env)+1)
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
			continue
		}
		out = append(out, kv)
	}
	all := strings.Join(dirs, string(os.PathListSeparator))
	if path != "" {
		all += string(os.PathListSeparator) + path
	}
	return append(out, "PATH="+all)
}

// lines writes each line of the plugin's output to its stream's writer.
func lines(stdout, stderr io.Writer) func(stream, line string) {
	return func(stream, line string) {
		w := stdout
		if stream == "stderr" {
			w = stderr
		}
		if w != nil {
			_, _ = io.WriteString(w, line+"\n")
		}
	}
}

// Info is where a project's program is, as language hosts are told:
// main, if set, names the program's directory or file.
func Info(p *langhost.Project) ProgramInfo {
	info := ProgramInfo{RootDir: p.Dir, ProgramDir: p.Dir, EntryPoint: ".", Options: p.Options}
	if p.Main == "" {
		return info
	}
	main := filepath.Join(p.Dir, p.Main)
	if fi, err := os.Stat(main); err == nil && !fi.IsDir() {
		info.ProgramDir, info.EntryPoint = filepath.Dir(main), filepath.Base(main)
	} else {
		info.ProgramDir = main
	}
	return info
}
