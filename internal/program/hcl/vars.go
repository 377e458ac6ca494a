package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program"
)

// inputs gathers the root module's variable values in Terraform's order
// of precedence, later sources replacing earlier ones.
type inputs struct {
	c      *Config
	vals   map[string]cty.Value
	getenv func(string) string
	opts   program.Options
	diags  hcl.Diagnostics
	parser *hclparse.Parser
}

func (in *inputs) declared(name string) *variable {
	for _, v := range in.c.root.variables {
		if v.name == name {
			return v
		}
	}
	return nil
}

// gather reads every source.
func (in *inputs) gather() error {
	in.parser = hclparse.NewParser()
	for _, v := range in.c.root.variables {
		if s := in.getenv("TF_VAR_" + v.name); s != "" {
			in.raw(v, s, "the environment variable TF_VAR_"+v.name)
		}
	}
	for _, f := range in.autoFiles() {
		in.file(f, false)
	}
	for _, f := range in.opts.VarFiles {
		in.file(f, true)
	}
	for _, kv := range in.opts.Vars {
		name, text, ok := strings.Cut(kv, "=")
		v := in.declared(strings.TrimSpace(name))
		switch {
		case !ok:
			in.diags = append(in.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -var option",
				Detail: fmt.Sprintf("The given -var option %q is not correctly specified. It must be a variable name and value separated by an equals sign, like -var=\"key=value\".", kv)})
		case v == nil:
			in.diags = append(in.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name)})
		default:
			in.raw(v, text, "the -var option")
		}
	}
	return in.c.src.errorOf(in.diags)
}

// autoFiles are terraform.tfvars(.json) and *.auto.tfvars(.json) in
// lexical order.
func (in *inputs) autoFiles() []string {
	var out []string
	for _, n := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(filepath.Join(in.c.dir, n)); err == nil {
			out = append(out, filepath.Join(in.c.dir, n))
		}
	}
	entries, _ := os.ReadDir(in.c.dir)
	var auto []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json") {
			auto = append(auto, filepath.Join(in.c.dir, n))
		}
	}
	sort.Strings(auto)
	return append(out, auto...)
}

// raw sets a variable from text: a string as written for a primitive
// string type, else an HCL expression.
func (in *inputs) raw(v *variable, text, from string) {
	if v.typ == cty.String || v.typ == cty.DynamicPseudoType && !looksLikeHCL(text) {
		in.vals[v.name] = cty.StringVal(text)
		return
	}
	e, ds := hclsyntax.ParseExpression([]byte(text), from, hcl.InitialPos)
	if !ds.HasErrors() {
		var val cty.Value
		val, ds = e.Value(nil)
		if !ds.HasErrors() {
			in.vals[v.name] = val
			return
		}
	}
	in.diags = append(in.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for input variable",
		Detail: fmt.Sprintf("The value given for var.%s in %s is not a valid expression: %s. Write it as HCL, such as [\"a\", \"b\"] or { key = \"value\" }.", v.name, from, ds.Error())})
}

func looksLikeHCL(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")
}

// file reads a .tfvars file; explicit files must exist and declare only
// known variables, automatic ones only warn.
func (in *inputs) file(path string, explicit bool) {
	shown := path
	if !filepath.IsAbs(path) {
		path = filepath.Join(in.c.dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		in.diags = append(in.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read variables file",
			Detail: fmt.Sprintf("Given variables file %s does not exist or cannot be read: %v.", shown, err)})
		return
	}
	if rel, err := filepath.Rel(in.c.dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel // a file outside the configuration is named as given
	}
	in.c.src[shown] = data
	var f *hcl.File
	var ds hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, ds = in.parser.ParseJSON(data, shown)
	} else {
		f, ds = in.parser.ParseHCL(data, shown)
	}
	in.diags = append(in.diags, ds...)
	if ds.HasErrors() {
		return
	}
	attrs, ds := f.Body.JustAttributes()
	in.diags = append(in.diags, ds...)
	for _, a := range sortedAttrs(attrs) {
		in.attribute(a, explicit)
	}
}

func (in *inputs) attribute(a *hcl.Attribute, explicit bool) {
	if in.declared(a.Name) == nil {
		sev := hcl.DiagWarning
		if explicit {
			sev = hcl.DiagError
		}
		in.diags = append(in.diags, &hcl.Diagnostic{Severity: sev, Summary: "Value for undeclared variable",
			Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. To use this value, add a \"variable\" block to the configuration.", a.Name, a.NameRange.Filename), Subject: a.NameRange.Ptr()})
		if !explicit && in.opts.Warn != nil {
			in.opts.Warn(in.c.src.diagnostic(in.diags[len(in.diags)-1]))
		}
		return
	}
	v, ds := a.Expr.Value(nil)
	in.diags = append(in.diags, ds...)
	if !ds.HasErrors() {
		in.vals[a.Name] = v
	}
}
