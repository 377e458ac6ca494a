package funcs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// templateFileFunc renders the template file at a path relative to baseDir
// with the given variables and the functions of table.
func templateFileFunc(baseDir string, table map[string]function.Function) function.Function {
	load := func(path cty.Value) (hcl.Expression, error) {
		p, marks := path.Unmark()
		src, err := readFile(baseDir, p.AsString(), marks)
		if err != nil {
			return nil, function.NewArgError(0, err)
		}
		expr, diags := hclsyntax.ParseTemplate(src, p.AsString(), hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return nil, diags
		}
		return expr, nil
	}
	return function.New(&function.Spec{
		Description: "Reads the file at the given path and renders its content as a template using a supplied set of template variables.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !(args[0].IsKnown() && args[1].IsKnown()) {
				return cty.DynamicPseudoType, nil
			}
			expr, err := load(args[0])
			if err != nil {
				return cty.DynamicPseudoType, err
			}
			v, err := renderTemplate(expr, args[1], table)
			return v.Type(), err
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			expr, err := load(args[0])
			if err != nil {
				return cty.DynamicVal, err
			}
			v, err := renderTemplate(expr, args[1], table)
			_, marks := args[0].Unmark()
			return v.WithMarks(marks), err
		},
	})
}

// templateStringFunc renders a string that holds a template. Like
// Terraform's, it refuses a template literal as its first argument: the
// template must come from a reference, or it would have been rendered
// already.
func templateStringFunc(table map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a template given as a string value, using a supplied set of template variables.",
		Params: []function.Parameter{
			{Name: "template", Type: customdecode.ExpressionClosureType},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			tmpl, err := templateSource(customdecode.ExpressionClosureFromVal(args[0]))
			if err != nil || !tmpl.IsKnown() {
				return cty.UnknownVal(ret), err
			}
			src, marks := tmpl.Unmark()
			expr, diags := hclsyntax.ParseTemplate([]byte(src.AsString()), "<templatestring argument>", hcl.Pos{Line: 1, Column: 1})
			if diags.HasErrors() {
				return cty.UnknownVal(ret), function.NewArgErrorf(0, "invalid template: %s", diags.Error())
			}
			v, err := renderTemplate(expr, args[1], table)
			if err != nil {
				return cty.UnknownVal(ret), err
			}
			out, err := convert.Convert(v, cty.String)
			if err != nil {
				return cty.UnknownVal(ret), fmt.Errorf("invalid template result: %s", err)
			}
			return out.WithMarks(marks), nil
		},
	})
}

// templateSource evaluates templatestring's first argument, which must be
// a reference to a string rather than a template of its own.
func templateSource(c *customdecode.ExpressionClosure) (cty.Value, error) {
	switch c.Expression.(type) {
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.IndexExpr:
	case *hclsyntax.TemplateWrapExpr:
		return cty.NilVal, function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax")
	case *hclsyntax.TemplateExpr:
		return cty.NilVal, function.NewArgErrorf(0, "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead")
	default:
		return cty.NilVal, function.NewArgErrorf(0, "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax")
	}
	v, diags := c.Value()
	if diags.HasErrors() {
		return cty.NilVal, function.NewArgErrorf(0, "invalid template expression: %s", diags.Error())
	}
	if !v.IsKnown() {
		return v, nil
	}
	if v.IsNull() {
		return cty.NilVal, function.NewArgErrorf(0, "template must not be null")
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return cty.NilVal, function.NewArgErrorf(0, "invalid template value: a string is required")
	}
	return s, nil
}

// renderTemplate evaluates expr with vars as its variables. Inside a
// template, templatefile and templatestring cannot be called.
func renderTemplate(expr hcl.Expression, vars cty.Value, table map[string]function.Function) (cty.Value, error) {
	if ty := vars.Type(); !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	ctx := &hcl.EvalContext{Variables: vars.AsValueMap(), Functions: map[string]function.Function{}}
	for n := range ctx.Variables {
		if !hclsyntax.ValidIdentifier(n) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", n)
		}
	}
	for _, tr := range expr.Variables() {
		if _, ok := ctx.Variables[tr.RootName()]; !ok {
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", tr.RootName(), tr[0].SourceRange())
		}
	}
	for name, f := range table {
		ctx.Functions[name] = f
	}
	for _, name := range []string{"templatefile", "templatestring", "core::templatefile", "core::templatestring"} {
		ctx.Functions[name] = recursionStub(name)
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return v, nil
}

// recursionStub stands for a template function inside a template.
func recursionStub(name string) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true},
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.NilType, fmt.Errorf("cannot recursively call %s from inside another template function", name)
		},
	})
}
