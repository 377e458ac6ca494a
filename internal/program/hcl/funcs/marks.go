package funcs

import (
	"fmt"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// anyValue is a parameter that passes every value through untouched:
// unknown, null, marked and of any type.
func anyValue(name string) function.Parameter {
	return function.Parameter{
		Name: name, Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowNull: true, AllowMarked: true, AllowDynamicType: true,
	}
}

// sameType returns its only argument's type.
func sameType(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil }

var sensitiveFunc = function.New(&function.Spec{
	Description: "Treats the given value as sensitive.",
	Params:      []function.Parameter{anyValue("value")},
	Type:        sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(Sensitive), nil
	},
})

var nonsensitiveFunc = function.New(&function.Spec{
	Description: "Removes the sensitive marking from the given value.",
	Params:      []function.Parameter{anyValue("value")},
	Type:        sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, m := args[0].Unmark()
		delete(m, Sensitive)
		return v.WithMarks(m), nil
	},
})

var issensitiveFunc = function.New(&function.Spec{
	Description: "Returns whether the given value is sensitive.",
	Params:      []function.Parameter{anyValue("value")},
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		switch {
		case args[0].HasMark(Sensitive):
			return cty.True, nil
		case !args[0].IsKnown():
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

var ephemeralAsNullFunc = function.New(&function.Spec{
	Description: "Replaces every ephemeral value within the given value with null.",
	Params:      []function.Parameter{anyValue("value")},
	Type:        sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.Transform(args[0], func(_ cty.Path, v cty.Value) (cty.Value, error) {
			inner, m := v.Unmark()
			if _, ok := m[Ephemeral]; !ok {
				return v, nil
			}
			delete(m, Ephemeral)
			if !inner.IsKnown() {
				return cty.UnknownVal(v.Type()).WithMarks(m), nil
			}
			return cty.NullVal(v.Type()).WithMarks(m), nil
		})
	},
})

// makeToFunc builds tostring, tolist, ...: an explicit conversion whose
// errors speak of conversion rather than of an argument's type.
func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Description: fmt.Sprintf("Converts the given value to %s.", want.FriendlyNameForConstraint()),
		Params: []function.Parameter{{
			Name: "v", Type: cty.DynamicPseudoType,
			AllowNull: true, AllowMarked: true, AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) { return toType(args[0].Type(), want) },
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			out, err := convert.Convert(args[0], ret)
			if err != nil {
				return cty.NilVal, toError(args[0], want)
			}
			return out, nil
		},
	})
}

func toType(got, want cty.Type) (cty.Type, error) {
	if got.Equals(want) || convert.GetConversionUnsafe(got, want) != nil {
		return want, nil
	}
	switch {
	case got.IsTupleType() && want.IsTupleType():
		return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", convert.MismatchMessage(got, want))
	case got.IsObjectType() && want.IsObjectType():
		return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", convert.MismatchMessage(got, want))
	}
	return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
}

// toError explains a conversion that type checking allowed but the value
// refused, never disclosing a sensitive value.
func toError(arg cty.Value, want cty.Type) error {
	val, _ := arg.UnmarkDeep()
	got := val.Type()
	what := "string"
	if got == cty.String && !val.IsNull() {
		what = strconv.Quote(val.AsString())
	}
	switch {
	case containsMark(arg, Sensitive):
		return function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
	case got == cty.String && want == cty.Bool:
		return function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
	case got == cty.String && want == cty.Number:
		return function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, what)
	}
	return function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
}

// containsMark reports whether v or anything inside it carries m.
func containsMark(v cty.Value, m Mark) bool {
	_, pvms := v.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[m]; ok {
			return true
		}
	}
	return false
}

// redact quotes s for an error message, or hides it if it is sensitive.
func redact(s string, markses ...cty.ValueMarks) string {
	for _, ms := range markses {
		if _, ok := ms[Sensitive]; ok {
			return "(sensitive value)"
		}
	}
	return strconv.Quote(s)
}
