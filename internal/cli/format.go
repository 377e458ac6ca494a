package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/program/yaml"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// project is a loaded program, whatever its format: what the commands
// need of it.
type project interface {
	Name() string
	// Terraform reports whether the program is a Terraform configuration.
	Terraform() bool
	Program(config map[string]resource.Value, opts program.Options) (engine.Program, error)
	DefaultProviderConfig(config map[string]resource.Value) func(pkg string) resource.Object
	ParseConfigValue(key, text string) (program.ConfigValue, error)
	ImportRequest(typ, name, id string) (engine.ImportRequest, error)
	ImportProgram(config map[string]resource.Value, opts program.Options, typ, name, id string) (engine.Program, error)
}

// loadProject is the one place the program format is chosen: plinth.yaml
// is the YAML format; *.tf or *.tf.json files and no plinth.yaml are a
// Terraform configuration.
func loadProject(dir string) (project, error) {
	if isTerraform(dir) {
		c, err := hcl.Load(dir)
		if err != nil {
			return nil, err
		}
		return tfProject{c}, nil
	}
	p, err := yaml.Load(dir)
	if err != nil {
		return nil, err
	}
	return yamlProject{p}, nil
}

// isTerraform reports whether dir holds a Terraform configuration: .tf
// or .tf.json files and no plinth.yaml.
func isTerraform(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, yaml.FileName))
	return errors.Is(err, os.ErrNotExist) && hcl.IsConfig(dir)
}

// displayStyle is how the views word an operation on the project in
// dir: terraform's plan and progress lines for a Terraform
// configuration, plinth's own otherwise.
func displayStyle(dir string) display.Style {
	if dir == "" {
		dir = "."
	}
	if isTerraform(dir) {
		return display.StyleTerraform
	}
	return display.StylePlinth
}

// yamlProject is a plinth.yaml program.
type yamlProject struct{ *yaml.Project }

func (yamlProject) Terraform() bool { return false }

func (p yamlProject) Program(config map[string]resource.Value, opts program.Options) (engine.Program, error) {
	if len(opts.Vars) > 0 || len(opts.VarFiles) > 0 {
		return nil, display.Errorf("Variables not taken", "-var and -var-file set the input variables of a Terraform configuration; a %s program takes its inputs from the stack config. Set them with `plinth config set KEY VALUE`.", yaml.FileName)
	}
	return p.Project.Program(config, opts)
}

func (p yamlProject) ImportProgram(config map[string]resource.Value, opts program.Options, typ, name, id string) (engine.Program, error) {
	return p.Project.ImportProgram(config, opts, typ, name, id)
}

// tfProject is a Terraform configuration.
type tfProject struct{ *hcl.Config }

func (tfProject) Terraform() bool { return true }

func (p tfProject) Program(config map[string]resource.Value, opts program.Options) (engine.Program, error) {
	return p.Config.Program(config, opts)
}

func (p tfProject) ImportRequest(typ, name, id string) (engine.ImportRequest, error) {
	reg, err := program.ImportRegistration(typ, name, id)
	return engine.ImportRequest{Type: reg.Type, Name: name, ID: id}, err
}

func (p tfProject) ImportProgram(map[string]resource.Value, program.Options, string, string, string) (engine.Program, error) {
	return nil, fmt.Errorf("plinth import into a Terraform configuration is not supported yet; import with the resource's address once it is")
}
