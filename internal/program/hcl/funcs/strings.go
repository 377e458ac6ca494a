package funcs

import (
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

func stringTable() map[string]function.Function {
	return map[string]function.Function{
		"startswith":  stringPredicate("prefix", "Determines if the input string starts with the given prefix.", strings.HasPrefix),
		"endswith":    stringPredicate("suffix", "Determines if the input string ends with the given suffix.", strings.HasSuffix),
		"strcontains": stringPredicate("substr", "Determines if the input string contains the given substring.", strings.Contains),
		"replace":     replaceFunc,
	}
}

// stringPredicate builds a function of (str, other) returning test(str, other).
func stringPredicate(other, desc string, test func(s, t string) bool) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: other, Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

var replaceFunc = function.New(&function.Spec{
	Description: "Searches a given string for another given substring, and replaces each occurrence with a given replacement string. A substring wrapped in forward slashes is a regular expression.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})
