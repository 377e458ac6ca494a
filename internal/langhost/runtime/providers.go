package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/plugin"
)

// LoadsSchemas are the runtimes whose language host reads the schema of
// every provider package the program uses by starting that package's
// Pulumi plugin itself (pulumi-language-yaml does, to type the program).
// It finds plugins as Pulumi does, and downloads one it cannot find, which
// plinth never does: plinth checks first that each one is there.
var LoadsSchemas = map[string]bool{"yaml": true}

// checkProviders asks the host (or the cache of its answers) which
// packages the program uses and fails, before the program runs, if the
// host could not find the plugin of one of them. A host that cannot
// answer is left to fail in Run, which says why.
func checkProviders(ctx context.Context, c *Client, pc packagesCache, info ProgramInfo, env plugin.Env, p *langhost.Project) error {
	pkgs, err := pc.required(ctx, c, info)
	if err != nil {
		return nil
	}
	var missing []string
	for _, pkg := range pkgs {
		name := pkg.Name
		if pkg.Parameterized {
			name = pkg.Base
		}
		if !hasProvider(env, p, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &MissingProviderError{Runtime: c.cfg.Runtime, Packages: missing, Looked: pulumiLocations(env)}
}

// hasProvider reports whether the host finds a Pulumi plugin for pkg:
// named in the project file, among the plugins plinth finds (which are on
// the host's PATH, or in Pulumi's cache), or on PATH.
func hasProvider(env plugin.Env, p *langhost.Project, pkg string) bool {
	if p.ProviderPlugins[pkg] != "" {
		return true
	}
	for _, found := range plugin.Discover(env) {
		if found.Kind == plugin.KindResource && found.Protocol == plugin.ProtocolPulumi && found.Name == pkg {
			return true
		}
	}
	_, ok := onPath(Getenv(env.Getenv, "PATH"), "pulumi-resource-"+pkg)
	return ok
}

// MissingProviderError is a program whose language host would need a
// provider plugin that is not installed.
type MissingProviderError struct {
	Runtime  string
	Packages []string
	Looked   []plugin.Location
}

func (e *MissingProviderError) Error() string {
	var b strings.Builder
	bins := make([]string, len(e.Packages))
	for i, p := range e.Packages {
		bins[i] = "pulumi-resource-" + p
	}
	fmt.Fprintf(&b, "the %s language host reads the schema of each provider package the program uses from the package's Pulumi plugin, and there is none for %s (%s).\nplinth looked in:",
		describe(e.Runtime), quoteList(e.Packages), strings.Join(bins, ", "))
	for _, l := range e.Looked {
		fmt.Fprintf(&b, "\n  %s (%s)", l.Dir, l.Origin)
	}
	b.WriteString("\n  every directory on PATH")
	fmt.Fprintf(&b, "\nPut the plugin in the project's .plinth/plugins or a directory of PLINTH_PLUGIN_PATH (plinth puts them first on the host's PATH), or name it under plugins: providers: in Pulumi.yaml.")
	for _, p := range e.Packages {
		if p == "plinth" {
			b.WriteString("\nplinth's built-in package serves as one: go build -o .plinth/plugins/pulumi-resource-plinth github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth")
		}
	}
	return b.String()
}

// quoteList is "a", "a" and "b", or "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("package %q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
