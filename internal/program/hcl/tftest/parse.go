package tftest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/plinth-iac/plinth/internal/program"
)

// File is a parsed .tftest.hcl file.
type File struct {
	Name string // as shown in the report: relative to the configuration directory
	path string
	src  []byte
	vars []*hcl.Attribute // the file's variables block, in source order
	runs []*Run

	mocks         Mocks       // mock_provider blocks (Providers only)
	overrides     []*override // override blocks of the whole file
	mockOverrides []*override // override blocks inside mock_provider blocks
}

// Runs are the file's run blocks, in order.
func (f *File) Runs() []*Run { return f.runs }

// Command is what a run block does with the configuration.
type Command string

// The commands a run block may give.
const (
	Plan  Command = "plan"
	Apply Command = "apply"
)

// Run is a run block.
type Run struct {
	Name     string
	Command  Command
	vars     []*hcl.Attribute
	asserts  []assert
	expect   []hcl.Traversal // expect_failures
	module   string          // the module block's source; "" for the configuration under test
	rng      hcl.Range       // the block's header
	expectAt hcl.Range       // the expect_failures attribute

	overrides []*override  // the run's override blocks
	plan      *planOptions // the plan_options block; nil without one
}

// assert is an assert block.
type assert struct {
	cond, message hcl.Expression
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "mock_provider", LabelNames: []string{"name"}},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
	},
}

var runSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "expect_failures"}, {Name: "providers"}, {Name: "state_key"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variables"}, {Type: "assert"}, {Type: "module"}, {Type: "plan_options"},
		{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
	},
}

var assertSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true},
}}

var moduleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "source", Required: true}, {Name: "version"},
}}

// Find lists the test files of the configuration in dir, as terraform
// test does: *.tftest.hcl in dir and in its tests directory, sorted. A
// filter, if given, keeps only the files named in it (relative to dir).
func Find(dir string, filter []string) ([]string, error) {
	var out []string
	for _, sub := range []string{".", "tests"} {
		found, err := filepath.Glob(filepath.Join(dir, sub, "*.tftest.hcl"))
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			rel, _ := filepath.Rel(dir, f)
			if len(filter) == 0 || contains(filter, rel) {
				out = append(out, rel)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if filepath.Clean(l) == s {
			return true
		}
	}
	return false
}

// Parse reads a test file, name relative to dir. Its error is a
// program.Diagnostics naming file:line:col of each problem.
func Parse(dir, name string) (*File, error) {
	path := filepath.Join(dir, name)
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the test file %s: %w", name, err)
	}
	hf, ds := hclparse.NewParser().ParseHCL(src, name)
	if ds.HasErrors() {
		return nil, toDiagnostics(ds)
	}
	f := &File{Name: name, path: path, src: src}
	ds = append(ds, f.decode(hf.Body)...)
	if ds.HasErrors() {
		return nil, toDiagnostics(ds)
	}
	return f, nil
}

// decode reads the file's blocks.
func (f *File) decode(body hcl.Body) hcl.Diagnostics {
	content, ds := body.Content(fileSchema)
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "variables":
			attrs, more := b.Body.JustAttributes()
			ds = append(ds, more...)
			f.vars = append(f.vars, sorted(attrs)...)
		case "run":
			r, more := decodeRun(b)
			ds = append(ds, more...)
			if prev, dup := seen[b.Labels[0]]; dup {
				ds = append(ds, errorAt(b.LabelRanges[0], "Duplicate run block",
					"This test file already has a run block named %q, at line %d. Give each run block its own name: later runs refer to its outputs as run.NAME.", b.Labels[0], prev.Start.Line))
				continue
			}
			seen[b.Labels[0]] = b.DefRange
			f.runs = append(f.runs, r)
		case "mock_provider":
			ds = append(ds, f.decodeMockProvider(b)...)
		case "override_resource", "override_data", "override_module":
			o, more := decodeOverride(b)
			ds = append(ds, more...)
			if o != nil {
				f.overrides = append(f.overrides, o)
			}
		default:
			ds = append(ds, errorAt(b.DefRange, "Unsupported block in a test file",
				"plinth test does not run %s blocks yet: the runs use the providers as the configuration configures them. Remove the block, or run this file with terraform test.", b.Type))
		}
	}
	return ds
}

// decodeRun reads a run block.
func decodeRun(b *hcl.Block) (*Run, hcl.Diagnostics) {
	r := &Run{Name: b.Labels[0], Command: Apply, rng: b.DefRange}
	content, ds := b.Body.Content(runSchema)
	if a, ok := content.Attributes["command"]; ok {
		ds = append(ds, r.decodeCommand(a)...)
	}
	if a, ok := content.Attributes["expect_failures"]; ok {
		ds = append(ds, r.decodeExpect(a)...)
	}
	for _, name := range []string{"providers", "state_key"} {
		if a, ok := content.Attributes[name]; ok {
			ds = append(ds, errorAt(a.NameRange, "Unsupported run block argument",
				"plinth test does not take %s in a run block yet. Remove it, or run this file with terraform test.", name))
		}
	}
	for _, blk := range content.Blocks {
		ds = append(ds, r.decodeBlock(blk)...)
	}
	return r, ds
}

// decodeBlock reads one block nested in a run block.
func (r *Run) decodeBlock(blk *hcl.Block) hcl.Diagnostics {
	switch blk.Type {
	case "variables":
		attrs, ds := blk.Body.JustAttributes()
		r.vars = append(r.vars, sorted(attrs)...)
		return ds
	case "assert":
		c, ds := blk.Body.Content(assertSchema)
		if !ds.HasErrors() {
			r.asserts = append(r.asserts, assert{cond: c.Attributes["condition"].Expr, message: c.Attributes["error_message"].Expr})
		}
		return ds
	case "module":
		return r.decodeModule(blk)
	case "plan_options":
		return r.decodePlanOptions(blk)
	case "override_resource", "override_data", "override_module":
		o, ds := decodeOverride(blk)
		if o != nil {
			r.overrides = append(r.overrides, o)
		}
		return ds
	}
	return hcl.Diagnostics{errorAt(blk.DefRange, "Unsupported block in a run block",
		"plinth test does not run %s blocks yet. Remove the block, or run this file with terraform test.", blk.Type)}
}

// decodeCommand reads command = plan | apply, a bare keyword.
func (r *Run) decodeCommand(a *hcl.Attribute) hcl.Diagnostics {
	switch hcl.ExprAsKeyword(a.Expr) {
	case "plan":
		r.Command = Plan
	case "apply":
		r.Command = Apply
	default:
		return hcl.Diagnostics{errorAt(a.Expr.Range(), "Invalid run block command",
			"The command of a run block is the keyword plan or apply, not a string or other expression: write command = plan.")}
	}
	return nil
}

// decodeExpect reads expect_failures, a list of references to checkable
// objects.
func (r *Run) decodeExpect(a *hcl.Attribute) hcl.Diagnostics {
	r.expectAt = a.Expr.Range()
	exprs, ds := hcl.ExprList(a.Expr)
	if ds.HasErrors() {
		return hcl.Diagnostics{errorAt(a.Expr.Range(), "Invalid expect_failures",
			"expect_failures is a list of references to checkable objects, such as [var.name, output.id, check.health].")}
	}
	for _, e := range exprs {
		t, more := hcl.AbsTraversalForExpr(e)
		if more.HasErrors() {
			ds = append(ds, errorAt(e.Range(), "Invalid expect_failures reference",
				"Each element of expect_failures is a reference to a variable, output, resource, data source or check block of the module under test, such as var.name; an expression is not allowed."))
			continue
		}
		r.expect = append(r.expect, t)
	}
	return ds
}

// decodeModule reads a module block: the run tests the module at source
// instead of the configuration.
func (r *Run) decodeModule(blk *hcl.Block) hcl.Diagnostics {
	c, ds := blk.Body.Content(moduleSchema)
	if ds.HasErrors() {
		return ds
	}
	if v, ok := c.Attributes["version"]; ok {
		return hcl.Diagnostics{errorAt(v.NameRange, "Unsupported module version",
			"plinth test runs local modules only (source = \"./path\"), which take no version. Remove the version, or run this file with terraform test.")}
	}
	a := c.Attributes["source"]
	v, more := a.Expr.Value(nil)
	if more.HasErrors() || v.Type().FriendlyName() != "string" || v.IsNull() {
		return hcl.Diagnostics{errorAt(a.Expr.Range(), "Invalid module source",
			"The source of a run block's module is a string naming a local directory, such as \"./setup\".")}
	}
	src := v.AsString()
	if !isDotPath(src) {
		return hcl.Diagnostics{errorAt(a.Expr.Range(), "Unsupported module source",
			"plinth test runs local modules only: %q is not a path starting with ./ or ../. Download the module beside the configuration and name its directory.", src)}
	}
	r.module = src
	return nil
}

func isDotPath(s string) bool {
	return len(s) > 1 && (s[:2] == "./" || len(s) > 2 && s[:3] == "../")
}

// sorted orders attributes by their position in the file.
func sorted(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}

// errorAt is an error diagnostic at a range.
func errorAt(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()}
}

// toDiagnostics turns HCL diagnostics into program diagnostics, which
// the CLI shows at file:line:col.
func toDiagnostics(ds hcl.Diagnostics) program.Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Subject, ds[j].Subject
		return a != nil && b != nil && a.Start.Byte < b.Start.Byte
	})
	out := make(program.Diagnostics, 0, len(ds))
	for _, d := range ds {
		pd := program.Diagnostic{Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			pd.Severity = program.Warning
		}
		if d.Subject != nil {
			pd.File, pd.Line, pd.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
		}
		out = append(out, pd)
	}
	return out
}
