package langhost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// ProjectFiles are the names a Pulumi project file may have.
var ProjectFiles = []string{"Pulumi.yaml", "Pulumi.yml"}

// Project is a Pulumi project file: the program's name and runtime.
type Project struct {
	Name        string
	Description string
	// Runtime is the language runtime, e.g. "nodejs"; Options are its
	// runtime options (runtime: {name: nodejs, options: {...}}).
	Runtime string
	Options map[string]any
	// Main is the program's entry point relative to Dir; "" means the
	// directory itself (the package's main).
	Main string
	// Dir is the project directory (absolute); File the project file as
	// shown in messages.
	Dir, File string
	// ProviderPlugins are the provider plugins the project file names
	// (plugins: providers: [{name, path}]), by package: language hosts
	// that start providers themselves use them.
	ProviderPlugins map[string]string
	// ConfigDefaults are the defaults of the config keys the project file
	// declares (config: {key: {type: T, default: V}}, or key: V), as YAML
	// data by key as written ("key", "pkg:key"): pulumi gives them to a
	// stack whose config sets no value.
	ConfigDefaults map[string]any
}

// Find returns the project file in dir, "" if there is none.
func Find(dir string) string {
	for _, name := range ProjectFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return name
		}
	}
	return ""
}

// Load reads the Pulumi project in dir. shown is dir as the user gave it,
// for messages.
func Load(dir, shown string) (*Project, error) {
	name := Find(dir)
	if name == "" {
		return nil, fmt.Errorf("%s holds no Pulumi.yaml: %w", shown, fs.ErrNotExist)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	p := &Project{Dir: abs, File: filepath.Join(shown, name)}
	data, err := os.ReadFile(filepath.Join(abs, name))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p.File, err)
	}
	if err := p.parse(data); err != nil {
		return nil, fmt.Errorf("%s: %w", p.File, err)
	}
	return p, nil
}

// projectFile is the part of Pulumi.yaml plinth reads.
type projectFile struct {
	Name        string               `yaml:"name"`
	Description string               `yaml:"description"`
	Runtime     yaml.Node            `yaml:"runtime"`
	Main        string               `yaml:"main"`
	Config      map[string]yaml.Node `yaml:"config"`
	Plugins     struct {
		Providers []struct {
			Name string `yaml:"name"`
			Path string `yaml:"path"`
		} `yaml:"providers"`
	} `yaml:"plugins"`
}

func (p *Project) parse(data []byte) error {
	var f projectFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("it is not a valid project file: %v", err)
	}
	if f.Name == "" {
		return errors.New("it has no name: give the project a name (name: my-project)")
	}
	p.Name, p.Description, p.Main = f.Name, f.Description, f.Main
	for _, pp := range f.Plugins.Providers {
		if p.ProviderPlugins == nil {
			p.ProviderPlugins = map[string]string{}
		}
		p.ProviderPlugins[pp.Name] = pp.Path
	}
	defaults, err := configDefaults(f.Config)
	if err != nil {
		return err
	}
	p.ConfigDefaults = defaults
	switch f.Runtime.Kind {
	case yaml.ScalarNode:
		p.Runtime = f.Runtime.Value
	case yaml.MappingNode:
		var rt struct {
			Name    string         `yaml:"name"`
			Options map[string]any `yaml:"options"`
		}
		if err := f.Runtime.Decode(&rt); err != nil {
			return fmt.Errorf("runtime: %v", err)
		}
		p.Runtime, p.Options = rt.Name, rt.Options
	}
	if p.Runtime == "" {
		return errors.New("it names no runtime: add runtime: nodejs")
	}
	return nil
}

// configDefaults reads the defaults of the project file's config block: a
// mapping with a type or a default is a declaration, anything else the
// value itself (pulumi's short form). Keys with no default are left out.
func configDefaults(decls map[string]yaml.Node) (map[string]any, error) {
	out := map[string]any{}
	for key, n := range decls {
		var decl struct {
			Type    string    `yaml:"type"`
			Default yaml.Node `yaml:"default"`
		}
		if n.Kind == yaml.MappingNode {
			if err := n.Decode(&decl); err != nil {
				return nil, fmt.Errorf("config key %s: %v", key, err)
			}
		}
		value := &n
		if decl.Type != "" || decl.Default.Kind != 0 {
			value = &decl.Default
		}
		if value.Kind == 0 {
			continue
		}
		var v any
		if err := value.Decode(&v); err != nil {
			return nil, fmt.Errorf("config key %s: %v", key, err)
		}
		out[key] = v
	}
	return out, nil
}
