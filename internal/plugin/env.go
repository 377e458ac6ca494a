package plugin

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Env says where to look: the project, the user's home and the
// environment variables that move plugin directories. It is plain data so
// tests can point it anywhere.
type Env struct {
	// ProjectDir is the project's root directory, "" for none.
	ProjectDir string
	// Home is the user's home directory.
	Home string
	// Getenv reads an environment variable; os.Getenv if nil.
	Getenv func(string) string
	// GOOS and GOARCH select Terraform's <os>_<arch> directories; the
	// running platform's if empty.
	GOOS, GOARCH string
	// DevOverrides are the CLI configuration's dev_overrides: the
	// directory of a provider's binary by provider address
	// (registry.terraform.io/hashicorp/random). They win over every
	// location.
	DevOverrides map[string]string
}

// DefaultEnv is the environment of this process for a project.
func DefaultEnv(projectDir string) Env {
	home, _ := os.UserHomeDir()
	return Env{ProjectDir: projectDir, Home: home}
}

func (e Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	return os.Getenv(k)
}

func (e Env) platform() string {
	goos, goarch := e.GOOS, e.GOARCH
	if goos == "" {
		goos = runtime.GOOS
	}
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	return goos + "_" + goarch
}

// layout is how a location arranges plugins.
type layout uint8

const (
	layoutPlain     layout = iota // binaries, plus Pulumi-style <kind>-<name>-v<version>/ directories
	layoutPulumi                  // Pulumi's cache: <kind>-<name>-v<version>/ directories
	layoutTerraform               // <host>/<namespace>/<name>/<version>/<os>_<arch>/
)

// Location is one place plugins are looked for.
type Location struct {
	Dir    string
	Origin Origin
	layout layout
}

// Locations lists the search locations in order.
func (e Env) Locations() []Location {
	var locs []Location
	add := func(dir string, o Origin, l layout) {
		if dir != "" {
			locs = append(locs, Location{Dir: dir, Origin: o, layout: l})
		}
	}
	if e.ProjectDir != "" {
		add(filepath.Join(e.ProjectDir, ".plinth", "plugins"), OriginProject, layoutPlain)
	}
	for _, d := range strings.Split(e.getenv("PLINTH_PLUGIN_PATH"), string(os.PathListSeparator)) {
		add(d, OriginPluginPath, layoutPlain)
	}
	add(e.homeDir("PLINTH_HOME", ".plinth"), OriginHome, layoutPlain)
	add(e.homeDir("PULUMI_HOME", ".pulumi"), OriginPulumi, layoutPulumi)
	if e.ProjectDir != "" {
		add(filepath.Join(e.ProjectDir, ".terraform", "providers"), OriginTerraformLocal, layoutTerraform)
	}
	add(e.getenv("TF_PLUGIN_CACHE_DIR"), OriginTerraformCache, layoutTerraform)
	if e.Home != "" {
		add(filepath.Join(e.Home, ".terraform.d", "plugins"), OriginTerraformHome, layoutTerraform)
	}
	return locs
}

// homeDir is $VAR/plugins, or ~/<dflt>/plugins.
func (e Env) homeDir(variable, dflt string) string {
	if d := e.getenv(variable); d != "" {
		return filepath.Join(d, "plugins")
	}
	if e.Home == "" {
		return ""
	}
	return filepath.Join(e.Home, dflt, "plugins")
}
