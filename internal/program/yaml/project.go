package yaml

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/program"
)

// FileName is the program file in a project directory.
const FileName = "plinth.yaml"

// Project is a parsed and statically checked program. It is immutable and
// may run any number of times, with any config.
type Project struct {
	file        string // as shown in diagnostics
	dir         string // absolute project directory
	name        string
	description string
	backend     string

	config      []*ConfigDecl
	configByKey map[string]*ConfigDecl
	variables   []*variable
	resources   []*resourceDecl // providers-block providers first
	outputs     []*output
	// importOnly marks a projection that imports one resource: it leaves
	// the stack outputs alone.
	importOnly bool

	graph
}

// variable and output are named expressions.
type variable struct {
	name string
	at   pos
	val  *expr
}

type output = variable

var topLevelKeys = []string{"name", "runtime", "description", "backend", "config", "variables", "resources", "providers", "outputs"}

// Load reads dir/plinth.yaml, parses it and checks it statically. The error,
// if any, is a Diagnostics listing every problem found.
func Load(dir string) (*Project, error) {
	file := filepath.Join(dir, FileName)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, program.Diagnostics{{Summary: "No program", File: file,
			Detail: fmt.Sprintf("There is no %s in %s. Create one, or run plinth from the project directory.", FileName, dir)}}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the program: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("finding the project directory: %w", err)
	}
	return Parse(file, abs, data)
}

// Parse parses program text. file names it in diagnostics; dir is the
// project directory that relative paths in the program resolve against.
// A large program's resources are parsed in pieces on every core
// (chunks.go), with the same result.
func Parse(file, dir string, data []byte) (*Project, error) {
	if len(data) >= chunkMin {
		if p, err, ok := parseChunked(file, dir, data, chunkTarget); ok {
			return p, err
		}
	}
	return parseWhole(file, dir, data)
}

// parseWhole parses program text as one YAML document.
func parseWhole(file, dir string, data []byte) (*Project, error) {
	r := &reader{diags: &diags{file: file}, budget: len(data) + aliasAllowance}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(file, err)
	}
	return parseDoc(r, file, dir, &doc)
}

// parseDoc reads a parsed document and checks it.
func parseDoc(r *reader, file, dir string, doc *yaml.Node) (*Project, error) {
	p := &Project{file: file, dir: dir, configByKey: map[string]*ConfigDecl{}}
	if len(doc.Content) == 0 {
		r.errorf(pos{Line: 1, Column: 1}, "", "Empty program", "The program is empty. It needs at least a name: write \"name: my-project\".")
		return nil, asError(r.list)
	}
	p.parseTop(r, doc.Content[0])
	if r.list.HasErrors() {
		return nil, asError(r.list)
	}
	p.buildGraph(r)
	if err := asError(r.list); err != nil {
		return nil, err
	}
	return p, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxError reports a YAML parse error at its line, when it has one.
func syntaxError(file string, err error) error {
	msg := err.Error()
	d := program.Diagnostic{Summary: "Invalid YAML", File: file}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	d.Detail = fmt.Sprintf("The program is not valid YAML: %s. Fix the syntax; check the indentation and that every quote and bracket is closed.", msg)
	return program.Diagnostics{d}
}

// parseTop reads the top-level mapping.
func (p *Project) parseTop(r *reader, n *yaml.Node) {
	entries, ok := r.mapping(n, "", "The program")
	if !ok {
		return
	}
	seen := map[string]entry{}
	for _, en := range entries {
		seen[en.key] = en
		p.parseSection(r, en)
	}
	if _, ok := seen["name"]; !ok {
		r.errorf(at(n), "name", "Missing project name", "The program has no name. Add \"name: my-project\" at the top; the name is part of every resource's URN.")
	}
}

func (p *Project) parseSection(r *reader, en entry) {
	switch en.key {
	case "name":
		p.parseName(r, en)
	case "runtime":
		// Accepted for Pulumi.yaml compatibility; plinth runs only YAML.
	case "description":
		p.description, _ = r.str(en.value, en.key, "description")
	case "backend":
		// The state backend; the CLI reads it (PLINTH_BACKEND and
		// --backend override it). It must be a string.
		p.backend, _ = r.str(en.value, en.key, "backend")
	case "config":
		p.parseConfig(r, en.value)
	case "variables":
		p.variables = parseNamed(r, en.value, "variables")
	case "resources":
		if r.chunked != nil && en.at.Line == r.chunked.line {
			p.addChunked(r, r.chunked) // read in pieces
			break
		}
		p.parseResources(r, en.value)
	case "providers":
		p.parseProviders(r, en.value)
	case "outputs":
		p.outputs = parseNamed(r, en.value, "outputs")
	default:
		r.errorf(en.at, en.key, "Unknown section",
			"A program has no section %q.%s The sections are %s.", en.key, suggest(en.key, topLevelKeys), quoteList(topLevelKeys, 10))
	}
}

func (p *Project) parseName(r *reader, en entry) {
	name, ok := r.str(en.value, "name", "name")
	if !ok {
		return
	}
	if !validProjectName(name) {
		r.errorf(at(en.value), "name", "Invalid project name",
			"The project name %q must start with a letter and hold only letters, digits, '-', '_' and '.'. Rename the project.", name)
		return
	}
	p.name = name
}

var projectName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)

func validProjectName(s string) bool { return len(s) <= 100 && projectName.MatchString(s) }

// parseNamed reads variables or outputs: a mapping of names to expressions.
func parseNamed(r *reader, n *yaml.Node, section string) []*variable {
	entries, _ := r.mapping(n, section, section)
	out := make([]*variable, 0, len(entries))
	for _, en := range entries {
		where := joinPath(section, en.key)
		if en.key == "" {
			r.errorf(en.at, where, "Empty name", "Every entry of %s needs a name.", section)
			continue
		}
		if e := r.parseExpr(en.value, where, 0); e != nil {
			out = append(out, &variable{name: en.key, at: en.at, val: e})
		}
	}
	return out
}

// Name returns the project name.
func (p *Project) Name() string { return p.name }

// Backend returns the state backend the program names, "" if none.
func (p *Project) Backend() string { return p.backend }

// Description returns the project description, possibly empty.
func (p *Project) Description() string { return p.description }

// Dir returns the absolute project directory.
func (p *Project) Dir() string { return p.dir }

// File returns the program file's name as diagnostics show it.
func (p *Project) File() string { return p.file }

// Resources returns the names of the resources the program declares, in
// program order, providers-block providers first.
func (p *Project) Resources() []string {
	names := make([]string, len(p.resources))
	for i, d := range p.resources {
		names[i] = d.name
	}
	return names
}
