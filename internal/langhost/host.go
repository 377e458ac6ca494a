package langhost

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Host runs programs of one language runtime, as Pulumi's language host
// for it does.
type Host interface {
	// Check finds what the program needs to run (its SDK, the language's
	// interpreter), so that a missing dependency is reported before any
	// operation starts.
	Check(p *Project) error
	// Run starts the program, connected to the monitor, and waits for it
	// to exit. Cancelling ctx interrupts it.
	Run(ctx context.Context, req RunRequest) error
}

// RunRequest is what a program is started with.
type RunRequest struct {
	Project      *Project
	Stack        string
	Organization string
	// MonitorAddr and EngineAddr are the resource monitor's and engine
	// service's addresses (host:port).
	MonitorAddr, EngineAddr string
	// Config maps "project:key" (or "pkg:key") to the value as text:
	// strings as they are, anything else as JSON.
	Config map[string]string
	// SecretKeys are the config keys whose values are secret.
	SecretKeys []string
	DryRun     bool
	Parallel   int
	// Stdout and Stderr receive the program's output.
	Stdout, Stderr io.Writer
}

// Hosts maps runtime names to hosts.
type Hosts map[string]Host

// For returns the host for a project's runtime.
func (h Hosts) For(p *Project) (Host, error) {
	if host, ok := h[p.Runtime]; ok {
		return host, nil
	}
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%s: runtime %q is not supported by plinth; the runtimes it runs are %s", p.File, p.Runtime, strings.Join(names, ", "))
}

// ProviderHost is a Host whose runtime also serves a provider of its
// own: Pulumi's dynamic providers (pulumi.dynamic.Resource), whose code
// the program serialises into each resource's inputs, are served by a
// plugin that runs that code in the program's own SDK. Node.js's is the
// package pulumi-nodejs.
type ProviderHost interface {
	Host
	// Provider returns the command that starts the provider plugin of
	// req.Package for the program, with the environment Pulumi gives it;
	// ok is false when the runtime serves no such package.
	Provider(req ProviderRequest) (cmd Command, ok bool, err error)
}

// ProviderRequest asks a ProviderHost for a provider's command.
type ProviderRequest struct {
	Project *Project
	Package string
	// Config and SecretKeys are the stack config as RunRequest has it.
	Config     map[string]string
	SecretKeys []string
}

// Command is a plugin's executable, the arguments before the engine's
// address and the variables added to plinth's environment.
type Command struct {
	Path string
	Args []string
	Env  []string
}
