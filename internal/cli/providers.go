package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/install"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/inproc"
	"github.com/plinth-iac/plinth/internal/provider/mu"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin"
	"github.com/plinth-iac/plinth/internal/provisioner"
	"github.com/plinth-iac/plinth/internal/registry"
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/providers/terraform"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The one place providers are wired: the built-in package in process,
// Pulumi-protocol plugins through pulumirpc, Terraform providers through
// tfplugin, Mu-protocol providers (mu-resource-<name>) through mu, each started by internal/registry's launcher for it, all found
// by internal/plugin.

// builtins are the providers compiled into plinth, for a project.
func builtins(projectDir string) map[string]registry.Builtin {
	return map[string]registry.Builtin{
		plinth.Name: {Version: plinth.Version, New: func() (provider.Provider, error) {
			return projectRooted{Provider: inproc.New(plinth.New(), inproc.WithPure(plinth.Pure)), dir: projectDir}, nil
		}},
		// Terraform configurations' built-in provider: terraform_data and
		// terraform_remote_state.
		terraform.Name: {Version: terraform.Version, New: func() (provider.Provider, error) {
			return inproc.New(terraform.New(projectDir), inproc.WithPure(terraform.Pure)), nil
		}},
	}
}

// projectRooted makes the built-in provider in process resolve a relative
// root (an explicit provider's root: data, or plinth:root in the stack
// config) against the project directory, as it does out of process, where
// the plugin runs in the project directory. plinth's own working directory
// cannot move, so the root is made absolute when the provider is
// configured; what is recorded stays as the program wrote it.
type projectRooted struct {
	provider.Provider
	dir string
}

// Pure implements provider.Pure as the wrapped provider declares it.
func (p projectRooted) Pure(typ string) bool { return provider.IsPure(p.Provider, typ) }

func (p projectRooted) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	if root := req.Inputs["root"].Str(); root != "" && !filepath.IsAbs(root) {
		req.Inputs = req.Inputs.Copy()
		req.Inputs["root"] = resource.NewString(filepath.Join(p.dir, root))
	}
	return p.Provider.Configure(ctx, req)
}

// providerSource finds and starts providers for a project. Plugins run
// in the project directory; what they log goes to logs (stderr) when
// verbose, and warnings always.
func providerSource(projectDir string, getenv func(string) string, logs io.Writer, verbose bool) *registry.Source {
	schemas := schemaCacheDir(getenv)
	pulumi := registry.Pulumi(pulumirpc.Config{Dir: projectDir, SchemaCache: schemas, Log: func(l pulumirpc.LogLine) {
		if verbose || l.Severity == "warning" || l.Severity == "error" {
			fmt.Fprintln(logs, l.String())
		}
	}})
	var tfLog io.Writer
	if verbose {
		tfLog = logs
	}
	terraform := registry.Terraform(tfplugin.Config{Dir: projectDir, Log: tfLog, SchemaCache: schemas,
		Warn: func(msg string) { fmt.Fprintln(logs, "warning: "+msg) }})
	env := plugin.DefaultEnv(projectDir)
	env.Getenv = getenv
	env.DevOverrides = devOverrides(getenv, logs)
	src := registry.NewSource(env, builtins(projectDir), pulumi, terraform)
	src.Mu = registry.Mu(mu.Config{Dir: projectDir, Log: tfLog, SchemaCache: schemas})
	src.Finder.Warn = func(msg string) { fmt.Fprintln(logs, "warning: "+msg) }
	src.Install = func(ctx context.Context, pkg, version, downloadURL string) error {
		spec := install.PluginSpec{Kind: "resource", Name: pkg, Version: version, Server: downloadURL}
		_, err := pluginInstaller(getenv, logs).Install(ctx, spec)
		return err
	}
	return src
}

// schemaCacheDir is where providers' schemas are kept across
// runs: $PLINTH_SCHEMA_CACHE ("off" for none), else $PLINTH_HOME/schemas,
// else <user cache dir>/plinth/schemas; "" (no cache) when there is no
// user cache directory.
func schemaCacheDir(getenv func(string) string) string {
	switch dir := getenv("PLINTH_SCHEMA_CACHE"); dir {
	case "off":
		return ""
	case "":
	default:
		return dir
	}
	if home := getenv("PLINTH_HOME"); home != "" {
		return filepath.Join(home, "schemas")
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "plinth", "schemas")
}

// providerConfig gives the built-in provider the project directory as
// its root, so relative paths resolve against the project wherever plinth
// runs from; stack config (plinth:root) may still override it.
func providerConfig(projectDir string, base func(pkg string) resource.Object) func(pkg string) resource.Object {
	return func(pkg string) resource.Object {
		cfg := base(pkg)
		if pkg != plinth.Name {
			return cfg
		}
		out := cfg.Copy()
		if out == nil {
			out = resource.Object{}
		}
		if _, set := out["root"]; !set {
			out["root"] = resource.NewString(projectDir)
		}
		return out
	}
}

// provisionerSource has the built-in provisioners (local-exec, file) and
// starts any other as a plugin, terraform-provisioner-NAME, found in the
// project's .plinth/plugins directory or on PATH, run in the project
// directory.
func provisionerSource(projectDir string) provisioner.Source {
	return provisioner.Source{Dir: projectDir, Plugins: func(ctx context.Context, name string) (provider.Provisioner, error) {
		file := "terraform-provisioner-" + name
		path := filepath.Join(projectDir, ".plinth", "plugins", file)
		if _, err := os.Stat(path); err != nil {
			if path, err = exec.LookPath(file); err != nil {
				return nil, fmt.Errorf("unknown provisioner %q: plinth has local-exec and file built in; for any other put its plugin %s in %s or on PATH", name, file, filepath.Join(projectDir, ".plinth", "plugins"))
			}
		}
		return tfplugin.StartProvisioner(ctx, tfplugin.Config{Path: path, Dir: projectDir, Name: name})
	}}
}

// devOverrides are the CLI configuration's dev_overrides; a CLI
// configuration that cannot be read is warned of and has none.
func devOverrides(getenv func(string) string, logs io.Writer) map[string]string {
	conf, err := install.ReadCLIConfig(install.CLIConfigPath(getenv))
	if err != nil {
		fmt.Fprintln(logs, "warning: "+err.Error()+"; its dev_overrides are not used")
	}
	return conf.Installation.DevOverrides
}
