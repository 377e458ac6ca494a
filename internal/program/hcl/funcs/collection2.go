package funcs

import (
	"errors"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

var lookupFunc = function.New(&function.Spec{
	Description: "Retrieves the value of a single element from a map, given its key. If the given key does not exist, the given default value is returned instead.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name: "default", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true,
	},
	Type: lookupType,
	Impl: lookupImpl,
})

func lookupType(args []cty.Value) (cty.Type, error) {
	if len(args) < 1 || len(args) > 3 {
		return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
	}
	ty := args[0].Type()
	switch {
	case ty.IsObjectType():
		if !args[1].IsKnown() {
			return cty.DynamicPseudoType, nil
		}
		key, _ := args[1].Unmark()
		if ty.HasAttribute(key.AsString()) {
			return args[0].GetAttr(key.AsString()).Type(), nil
		}
		if len(args) == 3 {
			return args[2].Type(), nil
		}
		return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", key.AsString())
	case ty.IsMapType():
		if len(args) == 3 {
			if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
				return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
			}
		}
		return ty.ElementType(), nil
	}
	return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
}

func lookupImpl(args []cty.Value, ret cty.Type) (cty.Value, error) {
	m, mapMarks := args[0].Unmark()
	k, keyMarks := args[1].Unmark()
	markses := []cty.ValueMarks{mapMarks, keyMarks}
	key := k.AsString()
	if !m.IsWhollyKnown() {
		return cty.UnknownVal(ret).WithMarks(markses...), nil
	}
	if m.Type().IsObjectType() {
		if m.Type().HasAttribute(key) {
			return m.GetAttr(key).WithMarks(markses...), nil
		}
	} else if m.HasIndex(cty.StringVal(key)) == cty.True {
		return m.Index(cty.StringVal(key)).WithMarks(markses...), nil
	}
	if len(args) == 3 {
		def, err := convert.Convert(args[2], ret)
		if err != nil {
			return cty.NilVal, err
		}
		return def.WithMarks(markses...), nil
	}
	return cty.UnknownVal(cty.DynamicPseudoType), fmt.Errorf("lookup failed to find key %s", redact(key, keyMarks))
}

var matchkeysFunc = function.New(&function.Spec{
	Description: "Constructs a new list by taking a subset of elements from one list whose indexes match the corresponding indexes of values in another list.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		if ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	Impl: matchkeysImpl,
})

func matchkeysImpl(args []cty.Value, ret cty.Type) (cty.Value, error) {
	if !args[0].IsKnown() {
		return cty.UnknownVal(ret), nil
	}
	if args[0].LengthInt() != args[1].LengthInt() {
		return cty.ListValEmpty(ret.ElementType()), errors.New("length of keys and values should be equal")
	}
	var out []cty.Value
	i := 0
	for it := args[1].ElementIterator(); it.Next(); i++ {
		_, key := it.Element()
		for it2 := args[2].ElementIterator(); it2.Next(); {
			_, search := it2.Element()
			eq, err := convert.Convert(key.Equals(search), cty.Bool)
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(ret), nil
			}
			if eq.True() {
				out = append(out, args[0].Index(cty.NumberIntVal(int64(i))))
				break
			}
		}
	}
	if len(out) == 0 {
		return cty.ListValEmpty(ret.ElementType()), nil
	}
	return cty.ListVal(out), nil
}

const oneMsg = "must be a list, set, or tuple value with either zero or one elements"

var oneFunc = function.New(&function.Spec{
	Description: "Returns either the first element of a one-element list, or `null` if given a zero-element list.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			switch len(ty.TupleElementTypes()) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return ty.TupleElementType(0), nil
			}
		}
		return cty.NilType, function.NewArgErrorf(0, oneMsg)
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		val := args[0]
		if !val.IsKnown() {
			return cty.UnknownVal(ret), nil
		}
		switch val.LengthInt() {
		case 0:
			return cty.NullVal(ret), nil
		case 1:
			it := val.ElementIterator()
			it.Next()
			_, v := it.Element()
			return v, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, oneMsg)
	},
})

const sumMsg = "argument must be list, set, or tuple of number values"

var sumFunc = function.New(&function.Spec{
	Description: "Returns the total sum of the elements of the given list or set.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		if !args[0].CanIterateElements() {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum noniterable")
		}
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		defer func() {
			if r := recover(); r != nil {
				ret, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		return sumNumbers(args[0].AsValueSlice())
	},
})

func sumNumbers(vals []cty.Value) (cty.Value, error) {
	s := cty.Zero
	for i, v := range vals {
		if v.IsNull() {
			return cty.NilVal, function.NewArgErrorf(0, sumMsg)
		}
		n, err := convert.Convert(v, cty.Number)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, sumMsg)
		}
		if i == 0 {
			s = n
			continue
		}
		s = s.Add(n)
	}
	return s, nil
}

var transposeFunc = function.New(&function.Spec{
	Description: "Takes a map of lists of strings and swaps the keys and values to produce a new map of lists of strings.",
	Params:      []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:        function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(ret), nil
		}
		tmp := map[string][]string{}
		for it := in.ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.MapValEmpty(cty.List(cty.String)), errors.New("input must be map of lists of strings")
			}
			for it2 := list.ElementIterator(); it2.Next(); {
				_, v := it2.Element()
				if v.IsNull() {
					return cty.MapValEmpty(cty.List(cty.String)), errors.New("input list must not contain null string")
				}
				tmp[v.AsString()] = append(tmp[v.AsString()], k.AsString())
			}
		}
		if len(tmp) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := map[string]cty.Value{}
		for k, ks := range tmp {
			sort.Strings(ks)
			out[k] = cty.ListVal(stringVals(ks))
		}
		return cty.MapVal(out), nil
	},
})

func stringVals(ss []string) []cty.Value {
	out := make([]cty.Value, len(ss))
	for i, s := range ss {
		out[i] = cty.StringVal(s)
	}
	return out
}
