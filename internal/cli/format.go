package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	goyaml "go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/langhost"
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

// format is a kind of program the CLI runs, known by the files its
// directory holds.
type format struct {
	name string
	what string // in messages: "a Pulumi program"
	// holds reports whether dir holds a program of this format.
	holds func(dir string) bool
	// load reads and checks the program in dir; nil for a Pulumi
	// program, which preparePulumi runs through internal/langhost.
	load func(dir string) (project, error)
	// project reads the program's project name in dir, without loading
	// the program: a backend keyed by project is opened before it.
	project func(dir string) (string, error)
	style   display.Style
}

// The formats' names.
const (
	programYAML      = "yaml"
	programPulumi    = "pulumi"
	programTerraform = "terraform"
)

// formats are the program formats in the order they are tried: the
// first whose files a directory holds is its format. plinth.yaml wins
// over the others, and a Pulumi.yaml over .tf files; a directory that
// holds none of them is read as YAML, whose loader says what is
// missing. A new format is a package under internal/program and a line
// here, with an adapter to project (as yamlProject and tfProject are)
// where its methods differ.
func formats() []format {
	return []format{
		{name: programYAML, what: "a plinth.yaml program", holds: holdsYAML, load: loadYAML, project: yamlProjectName, style: display.StylePlinth},
		{name: programPulumi, what: "a Pulumi program", holds: holdsPulumi, project: pulumiProjectName, style: display.StylePulumi},
		{name: programTerraform, what: "a Terraform configuration", holds: hcl.IsConfig, load: loadTerraform, project: tfProjectName, style: display.StyleTerraform},
	}
}

// formatOf is the one place the program format is chosen: the format of
// the program in dir.
func formatOf(dir string) format {
	all := formats()
	for _, f := range all {
		if f.holds(dir) {
			return f
		}
	}
	return all[0]
}

// loadProject reads and checks the program in dir, in its format.
func loadProject(dir string) (project, error) {
	f := formatOf(dir)
	if f.load == nil {
		return nil, fmt.Errorf("%s holds %s, which plinth runs but does not otherwise read", dir, f.what)
	}
	return f.load(dir)
}

// projectName reads the project name of the program in dir, without
// loading it.
func projectName(dir string) (string, error) { return formatOf(dir).project(dir) }

func yamlProjectName(dir string) (string, error) {
	return nameKey(filepath.Join(dir, yaml.FileName))
}

func pulumiProjectName(dir string) (string, error) {
	return nameKey(filepath.Join(dir, langhost.Find(dir)))
}

func tfProjectName(dir string) (string, error) { return hcl.ProjectName(dir), nil }

// nameKey reads the top-level name key of a project file.
func nameKey(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if name, ok := leadingName(data); ok {
		return name, nil
	}
	var top struct {
		Name string `yaml:"name"`
	}
	if err := goyaml.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("%s is not valid YAML: %v", path, err)
	}
	if top.Name == "" {
		return "", fmt.Errorf("%s has no name: give the project one (name: my-project)", path)
	}
	return top.Name, nil
}

// leadingName reads the project name of a file whose first line of
// content is name: followed by a plain word (letters, digits, '_', '.',
// '-'), and whose next line of content starts a new top-level key: what
// a full parse would find, without parsing a large program's resources
// (a no-change preview of 10,000 resources on a PostgreSQL backend spent
// 70 ms of CPU on that parse). Any other file (a directive, a document
// marker, a quoted or multi-line name, a word YAML reads as null) is
// reported not ok and parsed in full.
func leadingName(data []byte) (string, bool) {
	line, rest := nextContentLine(data)
	value, found := bytes.CutPrefix(line, []byte("name: "))
	if !found {
		return "", false
	}
	value, _, _ = bytes.Cut(value, []byte(" #"))
	value = bytes.TrimRight(bytes.TrimLeft(value, " "), " \r")
	next, _ := nextContentLine(rest)
	if !plainWord.Match(value) || nullWord.Match(value) || len(next) > 0 && (next[0] == ' ' || next[0] == '\t') {
		return "", false
	}
	return string(value), true
}

var (
	plainWord = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	nullWord  = regexp.MustCompile(`^(null|Null|NULL)$`)
)

// nextContentLine returns the first line of data that is neither blank
// nor a comment, and what follows it.
func nextContentLine(data []byte) (line, rest []byte) {
	for len(data) > 0 {
		line, data, _ = bytes.Cut(data, []byte("\n"))
		if t := bytes.TrimLeft(line, " \t\r"); len(t) > 0 && t[0] != '#' {
			return line, data
		}
	}
	return nil, nil
}

// isTerraform reports whether dir holds a Terraform configuration: .tf
// or .tf.json files, and neither a plinth.yaml nor a Pulumi.yaml.
func isTerraform(dir string) bool { return formatOf(dir).name == programTerraform }

// isPulumiProject reports whether dir holds a Pulumi project and no
// plinth.yaml (which wins when both are there).
func isPulumiProject(dir string) bool { return formatOf(dir).name == programPulumi }

// displayStyle is how the views word an operation on the project in
// dir: terraform's plan and progress lines for a Terraform
// configuration, pulumi's for a Pulumi program, plinth's own otherwise.
func displayStyle(dir string) display.Style {
	if dir == "" {
		dir = "."
	}
	return formatOf(dir).style
}

// holdsYAML reports whether dir holds a plinth.yaml, or may: an error
// other than its absence is the YAML loader's to report.
func holdsYAML(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, yaml.FileName))
	return !errors.Is(err, os.ErrNotExist)
}

// holdsPulumi reports whether dir holds a Pulumi project file.
func holdsPulumi(dir string) bool { return langhost.Find(dir) != "" }

func loadYAML(dir string) (project, error) {
	p, err := yaml.Load(dir)
	if err != nil {
		return nil, err
	}
	return yamlProject{p}, nil
}

func loadTerraform(dir string) (project, error) {
	c, err := hcl.Load(dir)
	if err != nil {
		return nil, err
	}
	return tfProject{c}, nil
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
