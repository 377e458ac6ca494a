package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	version "github.com/hashicorp/go-version"

	"github.com/plinth-iac/plinth/internal/plugin"
)

// Binary is the language host plugin's file name for a runtime.
func Binary(runtime string) string { return "pulumi-language-" + runtime }

// Finder says where language hosts are looked for. The zero value looks
// in this process's environment, with no project.
type Finder struct {
	// Env is where plugins are (internal/plugin's locations); its Getenv
	// also gives PATH.
	Env plugin.Env
}

// Find returns the language host for runtime: the first one in plinth's
// own plugin directories, else the one on PATH, else the newest in
// Pulumi's plugin cache.
func (f Finder) Find(runtime string) (string, error) {
	var cached []plugin.Plugin
	for _, p := range plugin.Discover(f.Env) {
		if p.Kind != plugin.KindLanguage || p.Name != runtime {
			continue
		}
		if p.Origin == plugin.OriginPulumi {
			cached = append(cached, p)
			continue
		}
		return p.Path, nil
	}
	if path, ok := onPath(Getenv(f.Env.Getenv, "PATH"), Binary(runtime)); ok {
		return path, nil
	}
	if p, ok := newest(cached); ok {
		return p.Path, nil
	}
	return "", &MissingHostError{Runtime: runtime, Looked: pulumiLocations(f.Env)}
}

// pulumiLocations are the locations that may hold Pulumi plugins: all
// but Terraform's provider trees.
func pulumiLocations(env plugin.Env) []plugin.Location {
	var out []plugin.Location
	for _, l := range env.Locations() {
		switch l.Origin {
		case plugin.OriginTerraformLocal, plugin.OriginTerraformCache, plugin.OriginTerraformHome:
			continue
		}
		out = append(out, l)
	}
	return out
}

// Getenv reads k through getenv, else from the process's environment
// when getenv is nil or has no value for it.
func Getenv(getenv func(string) string, k string) string {
	if getenv != nil {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return os.Getenv(k)
}

// onPath finds an executable file in the directories of path.
func onPath(path, file string) (string, bool) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			abs, err := filepath.Abs(p)
			return abs, err == nil
		}
	}
	return "", false
}

// newest is the plugin of the highest version.
func newest(ps []plugin.Plugin) (plugin.Plugin, bool) {
	var best plugin.Plugin
	var bestV *version.Version
	for _, p := range ps {
		v, err := version.NewVersion(p.Version)
		if err != nil {
			continue
		}
		if bestV == nil || v.GreaterThan(bestV) {
			best, bestV = p, v
		}
	}
	return best, bestV != nil
}

// PluginDirs are the directories holding the Pulumi providers plinth
// finds outside Pulumi's own cache, in search order, each once: what a
// language host that starts providers itself needs on its PATH to find
// the same ones.
func PluginDirs(env plugin.Env) []string {
	var dirs []string
	seen := map[string]bool{}
	for _, p := range plugin.Discover(env) {
		if p.Kind != plugin.KindResource || p.Protocol != plugin.ProtocolPulumi || p.Origin == plugin.OriginPulumi {
			continue
		}
		if d := filepath.Dir(p.Path); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// MissingHostError is a runtime whose language host plinth cannot find.
type MissingHostError struct {
	Runtime string
	Looked  []plugin.Location
}

func (e *MissingHostError) Error() string {
	var b strings.Builder
	bin := Binary(e.Runtime)
	fmt.Fprintf(&b, "runtime %q: plinth runs %s programs with Pulumi's language host %s, which it cannot find.\nplinth looked in:", e.Runtime, describe(e.Runtime), bin)
	for _, l := range e.Looked {
		fmt.Fprintf(&b, "\n  %s (%s)", l.Dir, l.Origin)
	}
	fmt.Fprintf(&b, "\n  every directory on PATH")
	fmt.Fprintf(&b, "\n%s", installHint(e.Runtime))
	return b.String()
}

// describe names a runtime's language for people.
func describe(runtime string) string {
	switch runtime {
	case "yaml":
		return "Pulumi YAML"
	case "python":
		return "Python"
	case "dotnet":
		return ".NET"
	case "java":
		return "Java"
	case "go":
		return "Go"
	}
	return runtime
}

// installHint says how to get a runtime's language host.
func installHint(runtime string) string {
	bin := Binary(runtime)
	switch runtime {
	case "yaml":
		return fmt.Sprintf("Install it: `go install github.com/pulumi/pulumi-yaml/cmd/%s@latest` (into $(go env GOPATH)/bin, which must be on PATH), "+
			"or `pulumi plugin install language yaml`, or put the %s that ships beside the pulumi CLI on PATH.", bin, bin)
	case "python", "dotnet", "go":
		return fmt.Sprintf("%s ships with the Pulumi CLI, beside the pulumi binary: put that directory on PATH, or copy %s into .plinth/plugins in the project.", bin, bin)
	case "java":
		return fmt.Sprintf("Install it with `pulumi plugin install language java`, or put %s on PATH or in .plinth/plugins in the project.", bin)
	}
	return fmt.Sprintf("Put %s on PATH or in .plinth/plugins in the project.", bin)
}
