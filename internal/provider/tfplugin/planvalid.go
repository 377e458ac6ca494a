package tfplugin

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// InvalidPlanError is a provider planning a value its configuration does
// not allow: a value the configuration sets must be planned as set (an
// unknown keeps its type), and only a computed attribute the
// configuration leaves null may be planned as anything. Terraform refuses
// such a plan ("Provider produced invalid plan"); so does plinth. It is a
// bug in the provider.
type InvalidPlanError struct {
	Provider   string
	Operation  string
	Attributes []string
}

func (e *InvalidPlanError) Error() string {
	return fmt.Sprintf("provider %s produced an invalid plan during %s: %s. This is a bug in the provider; report it to its maintainers",
		e.Provider, e.Operation, strings.Join(e.Attributes, "; "))
}

// invalidPlan checks a planned state against the configuration and the
// prior state; nil if it is valid, or if the provider declares legacy
// types (Terraform only warns of those providers' plans).
func (p *Provider) invalidPlan(t target, prior, config, plan cty.Value, legacy bool) error {
	if legacy || plan.IsNull() || config.IsNull() || !config.IsKnown() {
		return nil
	}
	c := planChecker{}
	c.block(nil, t.s.block, prior, config, plan)
	if len(c.found) == 0 {
		return nil
	}
	return &InvalidPlanError{Provider: p.cfg.Name, Operation: t.op, Attributes: c.found}
}

// planChecker walks a schema collecting the attributes planned wrongly.
type planChecker struct {
	found []string
}

func (c *planChecker) add(path cty.Path, format string, args ...any) {
	if len(c.found) < maxMismatches {
		c.found = append(c.found, formatPath(path)+": "+fmt.Sprintf(format, args...))
	}
}

// block checks each attribute and nested block of one block's objects.
func (c *planChecker) block(path cty.Path, b *block, prior, config, plan cty.Value) {
	if !knownObject(config) || !knownObject(plan) {
		return
	}
	if !knownObject(prior) {
		prior = cty.NullVal(b.impliedType())
	}
	for name, a := range b.attributes {
		c.attribute(path, name, a, attrOf(prior, name), attrOf(config, name), attrOf(plan, name))
	}
	for name, nb := range b.blocks {
		c.nestedBlocks(path.GetAttr(name), nb, attrOf(prior, name), attrOf(config, name), attrOf(plan, name))
	}
}

// unmarkDeep is v without marks; a primitive is unmarked without
// cty.UnmarkDeep's map and walk.
func unmarkDeep(v cty.Value) cty.Value {
	if v.Type().IsPrimitiveType() {
		v, _ = v.Unmark()
		return v
	}
	v, _ = v.UnmarkDeep()
	return v
}

func knownObject(v cty.Value) bool { return v.IsKnown() && !v.IsNull() }

// attribute checks one attribute, name in the block at parent: the
// configured value, or the prior one when the configuration sets it (the
// provider judged them equal); any value for a computed attribute the
// configuration leaves null; null, whatever the configuration holds, for
// a write-only attribute, whose value is never planned or stored.
func (c *planChecker) attribute(parent cty.Path, name string, a *attribute, prior, config, plan cty.Value) {
	switch {
	case a.writeOnly:
		if !plan.IsNull() {
			c.add(parent.GetAttr(name), "planned a value for a write-only attribute, which must be planned as null")
		}
		return
	case rawEquals(plan, config):
		return // the common case, decided before anything is unmarked or a path made
	case a.computed && (config.IsNull() || !a.optional && !a.required):
		return // anything goes; as common (ids, defaults)
	}
	path := parent.GetAttr(name)
	prior, config, plan = unmarkDeep(prior), unmarkDeep(config), unmarkDeep(plan)
	switch {
	case rawEquals(plan, config):
	case !prior.IsNull() && !config.IsNull() && rawEquals(plan, prior):
	case config.IsNull():
		c.add(path, "planned %s for an attribute that is not computed, which the configuration leaves null", describePlanned(path, plan, a.sensitive))
	case a.nested != nil:
		c.nested(path, a.nested, prior, config, plan)
	default:
		c.add(path, "planned %s, but the configuration holds %s", describePlanned(path, plan, a.sensitive), describePlanned(path, config, a.sensitive))
	}
}

// nested checks a protocol 6 nested attribute's objects.
func (c *planChecker) nested(path cty.Path, o *object, prior, config, plan cty.Value) {
	b := &block{attributes: o.attributes}
	c.each(path, o.nesting, prior, config, plan, func(p cty.Path, pr, cf, pl cty.Value) { c.block(p, b, pr, cf, pl) })
}

// nestedBlocks checks a nested block's objects.
func (c *planChecker) nestedBlocks(path cty.Path, nb *nestedBlock, prior, config, plan cty.Value) {
	c.each(path, nb.nesting, prior, config, plan, func(p cty.Path, pr, cf, pl cty.Value) { c.block(p, nb.block, pr, cf, pl) })
}

// each pairs the objects of a nesting mode: a single object, list
// elements by index, map elements by key. Sets have no positions to pair
// and are left to Terraform's rules on the final state.
func (c *planChecker) each(path cty.Path, n nesting, prior, config, plan cty.Value, check func(p cty.Path, pr, cf, pl cty.Value)) {
	switch n {
	case nestingSingle, nestingGroup:
		check(path, prior, config, plan)
	case nestingList, nestingMap:
		if !knownCollection(config) || !knownCollection(plan) {
			return
		}
		if config.LengthInt() != plan.LengthInt() {
			c.add(path, "planned %d elements, but the configuration holds %d", plan.LengthInt(), config.LengthInt())
			return
		}
		for it := config.ElementIterator(); it.Next(); {
			k, cf := it.Element()
			if !plan.HasIndex(k).True() {
				c.add(path.Index(k), "the plan leaves out an element the configuration holds")
				continue
			}
			pr := cty.NullVal(cf.Type())
			if knownCollection(prior) && prior.HasIndex(k).True() {
				pr = prior.Index(k)
			}
			check(path.Index(k), pr, cf, plan.Index(k))
		}
	}
}

func knownCollection(v cty.Value) bool { return v.IsKnown() && !v.IsNull() && v.CanIterateElements() }

// describePlanned renders a planned or configured value, naming the type
// of an unknown: the difference between an unknown string and an unknown
// of any type is what breaks a plan.
func describePlanned(path cty.Path, v cty.Value, sensitive bool) string {
	switch {
	case !v.IsKnown():
		return "an unknown " + v.Type().FriendlyName()
	case v.IsNull():
		return "null"
	case sensitive:
		return "(sensitive value)"
	case !v.IsWhollyKnown():
		return "a " + v.Type().FriendlyName() + " holding " + unknownsIn(path, v)
	}
	return fromCty(v).String()
}

// unknownsIn describes the unknowns inside the value at path with their
// types.
func unknownsIn(path cty.Path, v cty.Value) string {
	var parts []string
	_ = cty.Walk(v, func(p cty.Path, e cty.Value) (bool, error) {
		if !e.IsKnown() {
			parts = append(parts, fmt.Sprintf("an unknown %s at %s", e.Type().FriendlyName(), formatPath(append(path.Copy(), p...))))
			return false, nil
		}
		return true, nil
	})
	return strings.Join(parts, ", ")
}
