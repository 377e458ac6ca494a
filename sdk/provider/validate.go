package provider

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// A validate tag lists rules a property's value must follow, separated by
// spaces:
//
//	Port  int      `plinth:"port" validate:"min=1 max=65535"`
//	Name  string   `plinth:"name" validate:"len=1..63 match=[a-z][a-z0-9-]*"`
//	Mode  string   `plinth:"mode,optional" validate:"oneOf=fast|safe"`
//	Wait  string   `plinth:"wait,optional" validate:"duration"`
//	Token string   `plinth:"token,optional" validate:"conflicts=password"`
//	Tags  []string `plinth:"tags,optional" validate:"len=..10"`
//
// Check applies the rules after the types fit, on known values (an
// unknown value is checked when it is known), and reports each failure at
// the property's full path (spec.rules[1].port), so Terraform points at
// the attribute and Pulumi at the property.

// valueRule checks one known, non-null, non-secret value; it returns why
// the value fails, or "".
type valueRule func(v resource.Value) string

// rules is what a field's validate tag says.
type rules struct {
	value     []valueRule
	conflicts []string // sibling properties that must not be set with this one
	requires  []string // sibling properties that must be set with this one
}

func (r *rules) empty() bool {
	return r == nil || len(r.value)+len(r.conflicts)+len(r.requires) == 0
}

// ruleNames are the rules a validate tag may use.
var ruleNames = []string{"min", "max", "len", "oneOf", "match", "duration", "conflicts", "requires"}

// parseRules reads a validate tag for a field of codec c. The error says
// which rule is wrong and how to write it.
func parseRules(text string, c codec) (*rules, error) {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	r := &rules{}
	for _, item := range strings.Fields(text) {
		name, arg, hasArg := strings.Cut(item, "=")
		if err := r.add(name, arg, hasArg, c); err != nil {
			return nil, fmt.Errorf("validate rule %q: %w", item, err)
		}
	}
	return r, nil
}

func (r *rules) add(name, arg string, hasArg bool, c codec) error {
	if name != "duration" && !hasArg {
		if !contains(ruleNames, name) {
			return unknownRule(name)
		}
		return fmt.Errorf("%s needs a value, as in %s", name, ruleExample(name))
	}
	switch name {
	case "min", "max":
		return r.addBound(name, arg, c)
	case "len":
		return r.addLen(arg, c)
	case "oneOf":
		return r.addOneOf(arg, c)
	case "match":
		return r.addMatch(arg, c)
	case "duration":
		if _, ok := c.(stringCodec); !ok || hasArg {
			return fmt.Errorf("duration takes no value and applies to strings only")
		}
		r.value = append(r.value, checkDuration)
	case "conflicts", "requires":
		names := strings.Split(arg, "|")
		for _, n := range names {
			if !isPropertyName(n) {
				return fmt.Errorf("%q is not a property name; write %s", n, ruleExample(name))
			}
		}
		if name == "conflicts" {
			r.conflicts = append(r.conflicts, names...)
		} else {
			r.requires = append(r.requires, names...)
		}
	default:
		return unknownRule(name)
	}
	return nil
}

func unknownRule(name string) error {
	hint := ""
	if n := nearest(name, ruleNames); n != "" {
		hint = fmt.Sprintf("; did you mean %q?", n)
	}
	return fmt.Errorf("unknown rule %q (known: %s)%s", name, strings.Join(ruleNames, ", "), hint)
}

func ruleExample(name string) string {
	switch name {
	case "min", "max":
		return name + "=1"
	case "len":
		return "len=1..10 (either end may be left out) or len=3"
	case "oneOf":
		return "oneOf=a|b|c"
	case "match":
		return "match=[a-z]+"
	}
	return name + "=other|another"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isNumberCodec(c codec) bool {
	switch c.(type) {
	case intCodec, floatCodec:
		return true
	}
	return false
}

func (r *rules) addBound(name, arg string, c codec) error {
	if !isNumberCodec(c) {
		return fmt.Errorf("%s applies to numbers; for the length of a string, list or map use len=", name)
	}
	bound, ok := new(big.Float).SetString(arg)
	if !ok {
		return fmt.Errorf("%q is not a number; write %s", arg, ruleExample(name))
	}
	r.value = append(r.value, func(v resource.Value) string {
		cmp := v.BigNumber().Cmp(bound)
		switch {
		case name == "min" && cmp < 0:
			return fmt.Sprintf("must be at least %s, got %s", arg, v.NumberLiteral())
		case name == "max" && cmp > 0:
			return fmt.Sprintf("must be at most %s, got %s", arg, v.NumberLiteral())
		}
		return ""
	})
	return nil
}

func (r *rules) addLen(arg string, c codec) error {
	switch c.(type) {
	case stringCodec, sliceCodec, mapCodec:
	default:
		return fmt.Errorf("len applies to strings, slices and maps; for numbers use min= and max=")
	}
	lo, hi, err := parseRange(arg)
	if err != nil {
		return err
	}
	r.value = append(r.value, func(v resource.Value) string {
		n, unit := lengthOf(v)
		switch {
		case lo >= 0 && hi >= 0 && lo == hi && n != lo:
			return fmt.Sprintf("must have exactly %d %s, got %d", lo, unit, n)
		case lo >= 0 && n < lo:
			return fmt.Sprintf("must have at least %d %s, got %d", lo, unit, n)
		case hi >= 0 && n > hi:
			return fmt.Sprintf("must have at most %d %s, got %d", hi, unit, n)
		}
		return ""
	})
	return nil
}

// parseRange reads "A..B", "A..", "..B" or "N"; -1 is an open end.
func parseRange(arg string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(arg, "..")
	if !isRange {
		b = a
	}
	lo, hi = -1, -1
	if a != "" {
		if lo, err = strconv.Atoi(a); err != nil || lo < 0 {
			return 0, 0, fmt.Errorf("%q is not a length; write %s", arg, ruleExample("len"))
		}
	}
	if b != "" {
		if hi, err = strconv.Atoi(b); err != nil || hi < 0 {
			return 0, 0, fmt.Errorf("%q is not a length; write %s", arg, ruleExample("len"))
		}
	}
	if (lo < 0 && hi < 0) || (hi >= 0 && hi < lo) {
		return 0, 0, fmt.Errorf("%q is not a range; write %s", arg, ruleExample("len"))
	}
	return lo, hi, nil
}

func lengthOf(v resource.Value) (int, string) {
	switch v.Kind() {
	case resource.StringKind:
		return utf8.RuneCountInString(v.Str()), "characters"
	case resource.ArrayKind:
		return len(v.Array()), "elements"
	case resource.ObjectKind:
		return len(v.Object()), "entries"
	}
	return 0, "elements"
}

func (r *rules) addOneOf(arg string, c codec) error {
	_, isString := c.(stringCodec)
	if !isString && !isNumberCodec(c) {
		return fmt.Errorf("oneOf applies to strings and numbers")
	}
	choices := strings.Split(arg, "|")
	for _, ch := range choices {
		if _, ok := new(big.Float).SetString(ch); !isString && !ok {
			return fmt.Errorf("%q is not a number, and the field is numeric", ch)
		}
	}
	r.value = append(r.value, func(v resource.Value) string {
		for _, ch := range choices {
			if isString && v.Str() == ch {
				return ""
			}
			if f, _ := new(big.Float).SetString(ch); !isString && f.Cmp(v.BigNumber()) == 0 {
				return ""
			}
		}
		got := v.NumberLiteral()
		if isString {
			got = strconv.Quote(v.Str())
		}
		return fmt.Sprintf("must be one of %s, got %s", quoteAll(choices, isString), got)
	})
	return nil
}

func quoteAll(choices []string, quote bool) string {
	out := make([]string, len(choices))
	for i, ch := range choices {
		out[i] = ch
		if quote {
			out[i] = strconv.Quote(ch)
		}
	}
	return strings.Join(out, ", ")
}

func (r *rules) addMatch(arg string, c codec) error {
	if _, ok := c.(stringCodec); !ok {
		return fmt.Errorf("match applies to strings")
	}
	re, err := regexp.Compile("^(?:" + arg + ")$")
	if err != nil {
		return fmt.Errorf("not a regular expression: %v", err)
	}
	r.value = append(r.value, func(v resource.Value) string {
		if re.MatchString(v.Str()) {
			return ""
		}
		return fmt.Sprintf("must match the pattern %s, got %q", arg, v.Str())
	})
	return nil
}

func checkDuration(v resource.Value) string {
	if _, err := time.ParseDuration(v.Str()); err != nil {
		return fmt.Sprintf("must be a duration such as \"90s\", \"20m\" or \"1h30m\", got %q", v.Str())
	}
	return ""
}

// apply runs the rules on v, the value of property path p within the
// object o holding its siblings.
func (r *rules) apply(v resource.Value, p resource.PropertyPath, o resource.Object, fs *[]CheckFailure) {
	fail := func(reason string) {
		*fs = append(*fs, CheckFailure{Property: p.String(), Reason: reason})
	}
	for _, other := range r.conflicts {
		if isSet(o, other) {
			fail(fmt.Sprintf("conflicts with %q; set one of them, not both", other))
		}
	}
	for _, other := range r.requires {
		if !isSet(o, other) {
			fail(fmt.Sprintf("requires %q to be set too", other))
		}
	}
	v = v.SecretElement()
	if v.IsNull() || v.IsUnknown() {
		return
	}
	for _, rule := range r.value {
		if reason := rule(v); reason != "" {
			fail(reason)
		}
	}
}

// isSet reports whether o sets name: present and not null (an unknown
// value counts as set).
func isSet(o resource.Object, name string) bool {
	v, ok := o[name]
	return ok && !v.SecretElement().IsNull()
}

// checkSiblings reports a conflicts or requires rule naming a property the
// struct does not have.
func (c *structCodec) checkSiblings() error {
	for _, f := range c.fields {
		if f.rules.empty() {
			continue
		}
		for _, other := range append(append([]string{}, f.rules.conflicts...), f.rules.requires...) {
			if !c.has(other) || other == f.name() {
				return &DeclarationError{Owner: c.t.String(), Field: f.goName,
					Reason: fmt.Sprintf("validate tag names %q, which is not another property of %s (its properties are %s)",
						other, c.t, strings.Join(c.names(), ", "))}
			}
		}
	}
	return nil
}
