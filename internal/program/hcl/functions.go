package hcl

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions is the interim table of built-in functions: go-cty's
// standard library under Terraform's names, and file. The full table of
// Terraform's functions (package funcs) replaces it.
func functions(baseDir string) map[string]function.Function {
	fns := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "chomp": stdlib.ChompFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
		"compact": stdlib.CompactFunc, "concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc,
		"csvdecode": stdlib.CSVDecodeFunc, "distinct": stdlib.DistinctFunc, "element": stdlib.ElementFunc,
		"flatten": stdlib.FlattenFunc, "floor": stdlib.FloorFunc, "format": stdlib.FormatFunc,
		"formatdate": stdlib.FormatDateFunc, "formatlist": stdlib.FormatListFunc, "indent": stdlib.IndentFunc,
		"index": stdlib.IndexFunc, "join": stdlib.JoinFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"jsonencode": stdlib.JSONEncodeFunc, "keys": stdlib.KeysFunc, "length": lengthFunc,
		"log": stdlib.LogFunc, "lookup": stdlib.LookupFunc, "lower": stdlib.LowerFunc, "max": stdlib.MaxFunc,
		"merge": stdlib.MergeFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc,
		"range": stdlib.RangeFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"replace": stdlib.ReplaceFunc, "reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setproduct": stdlib.SetProductFunc, "setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"signum": stdlib.SignumFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc, "split": stdlib.SplitFunc,
		"strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "timeadd": stdlib.TimeAddFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"tostring": stdlib.MakeToFunc(cty.String), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tobool": stdlib.MakeToFunc(cty.Bool), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
	}
	fns["file"] = fileFunc(baseDir)
	fns["sensitive"] = markFunc(true)
	fns["nonsensitive"] = markFunc(false)
	return fns
}

// fileFunc reads a file relative to the configuration's directory.
func fileFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) {
				p = filepath.Join(baseDir, p)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "no file exists at %s; this function works only with files that are distributed as part of the configuration source code", args[0].AsString())
			}
			return cty.StringVal(string(data)), nil
		},
	})
}

// markFunc marks its argument sensitive, or removes the mark.
func markFunc(mark bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowMarked: true,
			AllowUnknown: true, AllowNull: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, _ := args[0].Unmark()
			if mark {
				return v.Mark(sensitive), nil
			}
			return v, nil
		},
	})
}

// lengthFunc is Terraform's length: of a collection, or of a string in
// characters.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowMarked: true}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		if !v.IsKnown() {
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		}
		if v.Type() == cty.String {
			n, err := stdlib.Strlen(v)
			return n.WithMarks(marks), err
		}
		return v.Length().WithMarks(marks), nil
	},
})
