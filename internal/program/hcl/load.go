package hcl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TerraformVersion is the Terraform version plinth runs configurations
// as: required_version constraints are checked against it.
const TerraformVersion = "1.11.4"

// Config is a loaded and statically checked configuration: the root
// module and every module it calls. It is immutable and may run any
// number of times.
type Config struct {
	name     string
	dir      string // absolute
	root     *Module
	src      sources
	graph    *graph
	warnings program.Diagnostics
	// constraints are each provider's version constraints, intersected
	// over every module, by provider address (see providerAddress).
	constraints map[string]*providerConstraint
}

// IsConfig reports whether a directory holds a Terraform configuration.
func IsConfig(dir string) bool {
	files, err := Files(dir)
	return err == nil && len(files) > 0
}

// Load reads the configuration in dir, its modules, and checks it:
// syntax, block shapes, references, cycles, required_version and that
// each provider's version constraints can be met together. The
// error is a program.Diagnostics naming file:line:col of each problem.
func Load(dir string) (*Config, error) { return LoadNamedFrom(dir, dir) }

// LoadNamedFrom is Load with the files named in diagnostics relative to
// the directory base rather than dir: plinth test loads the module a
// run's module block names (base/child) and names its files as
// terraform test does, from the configuration under test
// (child/main.tf).
func LoadNamedFrom(dir, base string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("finding the configuration directory: %w", err)
	}
	absBase, err := filepath.Abs(base)
	if err != nil {
		return nil, fmt.Errorf("finding the configuration directory: %w", err)
	}
	l := &loader{parser: hclparse.NewParser(), src: sources{}, root: abs, base: absBase}
	root := l.loadModule(abs, nil, nil, nil)
	c := &Config{name: ProjectName(abs), dir: abs, root: root, src: l.src}
	if !l.diags.HasErrors() {
		l.diags = append(l.diags, checkVersions(root)...)
	}
	if !l.diags.HasErrors() {
		var ds hcl.Diagnostics
		c.constraints, ds = combineConstraints(root)
		l.diags = append(l.diags, ds...)
	}
	if l.diags.HasErrors() {
		return nil, l.src.errorOf(l.diags)
	}
	c.graph = &graph{}
	c.graph.build(root)
	if !c.graph.diags.HasErrors() {
		c.graph.cycles()
	}
	if c.graph.diags.HasErrors() {
		return nil, l.src.errorOf(c.graph.diags)
	}
	for _, d := range l.diags {
		c.warnings = append(c.warnings, l.src.diagnostic(d))
	}
	return c, nil
}

var nameRunes = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// ProjectName is the project name the configuration in dir keeps its
// state under: the directory's name.
func ProjectName(dir string) string {
	n := strings.Trim(nameRunes.ReplaceAllString(filepath.Base(dir), "-"), "-.")
	if n == "" {
		return "terraform"
	}
	return n
}

// checkVersions checks every module's required_version against the
// Terraform version plinth claims.
func checkVersions(m *Module) hcl.Diagnostics {
	var out hcl.Diagnostics
	claimed := version.Must(version.NewVersion(TerraformVersion))
	for _, e := range m.requiredVersion {
		v, ds := e.Value(nil)
		out = append(out, ds...)
		if ds.HasErrors() || v.Type() != cty.String {
			continue
		}
		c, err := version.NewConstraint(v.AsString())
		if err != nil {
			out = append(out, errorAt(e.Range(), "Invalid required_version constraint", "%q is not a version constraint: %v. Write one such as \">= 1.5\".", v.AsString(), err))
			continue
		}
		if !c.Check(claimed) {
			out = append(out, errorAt(e.Range(), "Unsupported Terraform Core version",
				"This configuration does not support Terraform version %s, the version plinth is compatible with. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.", TerraformVersion))
		}
	}
	for _, c := range m.calls {
		if c.module != nil {
			out = append(out, checkVersions(c.module)...)
		}
	}
	return out
}

// Name is the project name: the directory's name.
func (c *Config) Name() string { return c.name }

// Dir is the configuration's directory.
func (c *Config) Dir() string { return c.dir }

// Warnings are what Load found that does not stop a run.
func (c *Config) Warnings() program.Diagnostics { return c.warnings }

// Program gathers the root module's input variables (the variables'
// defaults, TF_VAR_ environment variables, terraform.tfvars,
// *.auto.tfvars, then -var-file and -var, later ones winning) and
// returns the program to run. Stack config is provider configuration
// only (PKG:KEY).
func (c *Config) Program(_ map[string]resource.Value, opts program.Options) (*Evaluator, error) {
	for _, w := range c.warnings {
		if opts.Warn != nil {
			opts.Warn(w)
		}
	}
	in := &inputs{c: c, vals: map[string]cty.Value{}, getenv: os.Getenv, opts: opts}
	if opts.Getenv != nil {
		in.getenv = opts.Getenv
	}
	if err := in.gather(); err != nil {
		return nil, err
	}
	if err := c.checkUnconfigured(opts.GenerateConfigOut); err != nil {
		return nil, err
	}
	return &Evaluator{c: c, inputs: in.vals, opts: opts, planned: &sync.Map{}}, nil
}

// DefaultProviderConfig gives a default provider the stack config's
// PKG:KEY values.
func (c *Config) DefaultProviderConfig(config map[string]resource.Value) func(pkg string) resource.Object {
	return func(pkg string) resource.Object {
		out := resource.Object{}
		for k, v := range config {
			if name, ok := strings.CutPrefix(k, pkg+":"); ok {
				out[name] = v
			}
		}
		return out
	}
}

// ParseConfigValue takes a stack config value as text. A Terraform
// configuration declares no config keys: its inputs are variables.
func (c *Config) ParseConfigValue(key, text string) (program.ConfigValue, error) {
	if !strings.Contains(key, ":") {
		return program.ConfigValue{}, errors.New("a Terraform configuration takes its inputs as variables (-var, .tfvars files, TF_VAR_ environment variables), not stack config; stack config holds provider settings as PROVIDER:KEY")
	}
	return program.ConfigValue{Key: key, Value: resource.NewString(text)}, nil
}
