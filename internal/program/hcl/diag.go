package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program"
)

// sources holds the text of every file read, to quote in diagnostics.
// Files are named by the path shown to people.
type sources map[string][]byte

// diagnostic turns an HCL diagnostic into a program one: file:line:col,
// and the detail preceded by the source line with a caret under the
// place, as terraform shows it.
func (s sources) diagnostic(d *hcl.Diagnostic) program.Diagnostic {
	out := program.Diagnostic{Summary: d.Summary, Detail: d.Detail}
	if d.Severity == hcl.DiagWarning {
		out.Severity = program.Warning
	}
	if d.Subject == nil {
		return out
	}
	out.File, out.Line, out.Column = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column
	if snip := s.snippet(*d.Subject); snip != "" {
		pad := strings.Repeat(" ", len(fmt.Sprint(d.Subject.Start.Line)))
		for _, v := range valuesInvolved(d) {
			snip += "\n" + pad + " | " + v
		}
		out.Detail = snip + "\n\n" + out.Detail
	}
	if c, ok := d.Extra.(diagContext); ok {
		out.Detail = fmt.Sprintf("on %s line %d, in %s:\n%s", d.Subject.Filename, d.Subject.Start.Line, c, out.Detail)
	}
	return out
}

// diagContext, as a diagnostic's Extra, names the block the diagnostic
// is in when that is not the block its subject's file shows around it
// (`module "big"` for a module variable's validation reported at the
// call): the detail then starts "on FILE line N, in module "big":", as
// terraform's does.
type diagContext string

// valuesInvolved describes, for lines under the snippet, the values of
// the references in a diagnostic's expression ("var.size is 50"), as
// terraform shows them; none when it has no expression or context.
func valuesInvolved(d *hcl.Diagnostic) []string {
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range d.Expression.Variables() {
		name := traversalString(t)
		if seen[name] {
			continue
		}
		seen[name] = true
		v, ds := t.TraverseAbs(d.EvalContext)
		if ds.HasErrors() {
			continue
		}
		out = append(out, name+" "+describeValue(v))
	}
	return out
}

// traversalString writes a reference as it is written in the
// configuration: var.size, local.list[0], each.value["k"].
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + describeKey(s.Key) + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

func describeKey(k cty.Value) string {
	if !k.IsKnown() || k.IsNull() {
		return "?"
	}
	if k.Type() == cty.String {
		return fmt.Sprintf("%q", k.AsString())
	}
	if k.Type() == cty.Number {
		return k.AsBigFloat().Text('f', -1)
	}
	return "?"
}

// describeValue says what a value is, briefly: "is 50", "is \"a\"", "is
// list of string with 3 elements", "has a sensitive value", "is a
// number, known only after apply".
func describeValue(v cty.Value) string {
	if v.IsMarked() {
		if v.HasMark(sensitive) {
			return "has a sensitive value"
		}
		if v.HasMark(ephemeralMark) {
			return "has an ephemeral value"
		}
		v, _ = v.Unmark()
	}
	ty := v.Type()
	switch {
	case !v.IsKnown():
		return "is a " + ty.FriendlyName() + ", known only after apply"
	case v.IsNull():
		return "is null"
	case ty == cty.String:
		return fmt.Sprintf("is %q", v.AsString())
	case ty == cty.Number:
		return "is " + v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return fmt.Sprintf("is %t", v.True())
	case ty.IsObjectType():
		return fmt.Sprintf("is object with %d attributes", len(ty.AttributeTypes()))
	case ty.IsTupleType():
		return fmt.Sprintf("is tuple with %d elements", len(ty.TupleElementTypes()))
	case ty.IsCollectionType():
		if v.LengthInt() == 0 {
			return "is empty " + ty.FriendlyName()
		}
		return fmt.Sprintf("is %s with %d elements", ty.FriendlyName(), v.LengthInt())
	}
	return "is " + ty.FriendlyName()
}

// snippet quotes the range's first line with carets under the range.
func (s sources) snippet(rng hcl.Range) string {
	src, ok := s[rng.Filename]
	if !ok || rng.Start.Line < 1 {
		return ""
	}
	lines := strings.Split(string(src), "\n")
	if rng.Start.Line > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[rng.Start.Line-1], "\r")
	width := 1
	if rng.End.Line == rng.Start.Line && rng.End.Column > rng.Start.Column {
		width = rng.End.Column - rng.Start.Column
	}
	col := min(max(rng.Start.Column-1, 0), len(line))
	width = max(min(width, len(line)-col), 1)
	num := fmt.Sprintf("%d", rng.Start.Line)
	pad := strings.Repeat(" ", len(num))
	indent := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, line[:col])
	return fmt.Sprintf("%s | %s\n%s | %s%s", num, line, pad, indent, strings.Repeat("^", width))
}

// errorOf returns the error diagnostics as an error, nil if there are
// none.
func (s sources) errorOf(ds hcl.Diagnostics) error {
	if !ds.HasErrors() {
		return nil
	}
	var errs program.Diagnostics
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			errs = append(errs, s.diagnostic(d))
		}
	}
	return errs
}

// errorAt makes an error diagnostic at a range.
// warningAt is a warning at rng.
func warningAt(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	d := errorAt(rng, summary, format, args...)
	d.Severity = hcl.DiagWarning
	return d
}

func errorAt(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	r := rng
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &r}
}
