package hcl

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
)

// The refactoring blocks: moved, import and removed. Their addresses are
// kept as the text plinth names resources by (module.a["k"].t.n[0]),
// relative to the module that declares them.

// tfAddr is a parsed moved, import or removed address: a module
// instance path, then, unless it names a module, a resource with an
// optional instance key.
type tfAddr struct {
	module  string // module.a["k"].module.b (no trailing dot); "" for the module itself
	modKey  bool   // the last module step has an instance key
	typ     string // the resource type; "" for a module address
	name    string
	key     string // the instance key as written in addresses ([0], ["x"]); "" for none
	dataSrc bool
}

// isModule reports whether the address names a module (call or instance).
func (a tfAddr) isModule() bool { return a.typ == "" }

// resource is the resource's address within its module: TYPE.NAME.
func (a tfAddr) resource() string { return a.typ + "." + a.name }

func (a tfAddr) String() string {
	if a.isModule() {
		return a.module
	}
	s := a.resource() + a.key
	if a.dataSrc {
		s = "data." + s
	}
	if a.module != "" {
		s = a.module + "." + s
	}
	return s
}

// keyText writes an instance key as addresses show it.
func keyText(k cty.Value) (string, bool) {
	switch {
	case !k.IsKnown() || k.IsNull():
		return "", false
	case k.Type() == cty.Number:
		return "[" + k.AsBigFloat().Text('f', -1) + "]", true
	case k.Type() == cty.String:
		return "[" + strconv.Quote(k.AsString()) + "]", true
	}
	return "", false
}

// parseAddr reads an address traversal. what names the argument in
// messages ("from", "to").
func parseAddr(t hcl.Traversal, rng hcl.Range) (tfAddr, *hcl.Diagnostic) {
	bad := func(detail string) (tfAddr, *hcl.Diagnostic) {
		return tfAddr{}, errorAt(rng, "Invalid address", "%s", detail)
	}
	var a tfAddr
	var mods []string
	steps := traversalSteps(t)
	for len(steps) > 0 && steps[0].name == "module" {
		if len(steps) < 2 || steps[1].name == "" {
			return bad("A module address needs a call name after \"module.\", as in module.network.")
		}
		mods = append(mods, "module."+steps[1].name+steps[1].key)
		a.modKey = steps[1].key != ""
		steps = steps[2:]
	}
	a.module = strings.Join(mods, ".")
	if len(steps) > 0 && steps[0].name == "data" {
		a.dataSrc, steps = true, steps[1:]
	}
	switch {
	case len(steps) == 0 && len(mods) > 0 && !a.dataSrc:
		return a, nil
	case len(steps) != 2 || steps[0].key != "" || steps[0].name == "" || steps[1].name == "":
		return bad("A resource address is TYPE.NAME, optionally with an instance key (TYPE.NAME[0], TYPE.NAME[\"key\"]) and preceded by module calls (module.NAME.TYPE.NAME).")
	}
	a.typ, a.name, a.key = steps[0].name, steps[1].name, steps[1].key
	return a, nil
}

// addrStep is a name followed by an optional instance key; a key with no
// name before it has name "".
type addrStep struct{ name, key string }

func traversalSteps(t hcl.Traversal) []addrStep {
	var out []addrStep
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			out = append(out, addrStep{name: s.Name})
		case hcl.TraverseAttr:
			out = append(out, addrStep{name: s.Name})
		case hcl.TraverseIndex:
			k, ok := keyText(s.Key)
			if !ok || len(out) == 0 || out[len(out)-1].key != "" {
				return append(out, addrStep{}) // invalid: makes parseAddr refuse it
			}
			out[len(out)-1].key = k
		default:
			return append(out, addrStep{})
		}
	}
	return out
}

// under reports whether the full address name is target or something
// target contains (its instances, or what is in a module), and returns
// the rest of name after target.
func under(name, target string) (string, bool) {
	if name == target {
		return "", true
	}
	rest, ok := strings.CutPrefix(name, target)
	if ok && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[")) {
		return rest, true
	}
	return "", false
}

// addrAttr reads an address argument of a refactoring block.
func (l *loader) addrAttr(content *hcl.BodyContent, name string) (tfAddr, bool) {
	a, ok := content.Attributes[name]
	if !ok {
		return tfAddr{}, false
	}
	t, ds := hcl.AbsTraversalForExpr(a.Expr)
	if ds.HasErrors() {
		l.diags = append(l.diags, errorAt(a.Expr.Range(), "Invalid address",
			"The %q argument must be a static address such as aws_instance.web, aws_instance.web[0] or module.network, not an expression.", name))
		return tfAddr{}, false
	}
	addr, d := parseAddr(t, a.Expr.Range())
	if d != nil {
		l.diags = append(l.diags, d)
		return tfAddr{}, false
	}
	return addr, true
}

// boolLifecycle reads lifecycle { NAME = BOOL } from a block's content.
func (l *loader) boolLifecycle(content *hcl.BodyContent, name string, dst *bool) {
	for _, b := range content.Blocks {
		if b.Type != "lifecycle" {
			continue
		}
		lc, ds := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
		l.diags = append(l.diags, ds...)
		if a, ok := lc.Attributes[name]; ok {
			l.diags = append(l.diags, gohcl.DecodeExpression(a.Expr, nil, dst)...)
		}
	}
}
