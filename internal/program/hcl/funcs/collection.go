package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func collectionTable() map[string]function.Function {
	return map[string]function.Function{
		"alltrue": allTrueFunc, "anytrue": anyTrueFunc, "coalesce": coalesceFunc,
		"index": indexFunc, "length": lengthFunc, "lookup": lookupFunc,
		"matchkeys": matchkeysFunc, "one": oneFunc, "sum": sumFunc,
		"transpose": transposeFunc,
	}
}

var allTrueFunc = function.New(&function.Spec{
	Description: "Returns true if all elements in a given collection are true or \"true\".",
	Params:      []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		result := cty.True
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() {
				return cty.False, nil
			}
			result = result.And(v)
			if result.False() {
				return cty.False, nil
			}
		}
		return result, nil
	},
})

var anyTrueFunc = function.New(&function.Spec{
	Description: "Returns true if any element in a given collection is true or \"true\".",
	Params:      []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		unknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				unknown = true
			case v.IsNull():
			case v.True():
				return cty.True, nil
			}
		}
		if unknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

var coalesceFunc = function.New(&function.Spec{
	Description: "Takes any number of arguments and returns the first one that isn't null or an empty string.",
	VarParam: &function.Parameter{
		Name: "vals", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		tys := make([]cty.Type, len(args))
		for i, v := range args {
			tys[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(tys)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		for _, v := range args {
			v, _ = convert.Convert(v, ret)
			if !v.IsKnown() {
				return cty.UnknownVal(ret), nil
			}
			if v.IsNull() || (v.Type() == cty.String && v.AsString() == "") {
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

var indexFunc = function.New(&function.Spec{
	Description: "Finds the element index for a given value in a list.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsTupleType()) {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !args[0].IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if args[0].LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := args[0].ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

var lengthFunc = function.New(&function.Spec{
	Description: "Determines the length of a given list, map, or string.",
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowDynamicType: true, AllowUnknown: true, AllowMarked: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() || ty == cty.DynamicPseudoType {
			return cty.Number, nil
		}
		return cty.NilType, errors.New("argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		coll, marks := args[0].Unmark()
		switch {
		case coll.Type() == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case coll.Type().IsTupleType():
			return cty.NumberIntVal(int64(coll.Type().Length())).WithMarks(marks), nil
		case coll.Type().IsObjectType():
			return cty.NumberIntVal(int64(len(coll.Type().AttributeTypes()))).WithMarks(marks), nil
		case coll.Type() == cty.String:
			n, err := stdlib.Strlen(coll)
			return n.WithMarks(marks), err
		}
		return coll.Length().WithMarks(marks), nil
	},
})
