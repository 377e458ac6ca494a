package tfplugin

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// mismatch is one attribute where a value broke a promise made by an earlier
// one: a plan's known value changed by the apply, or by the final plan.
type mismatch struct {
	path      cty.Path
	want, got cty.Value
}

// compatible compares a later value with the promise of an earlier one:
// every known part of want must be equal in got; unknown parts of want may
// become anything. Sets are compared as sets; a set whose promise holds
// unknowns may end with any elements. It returns the mismatches found, at
// most a few.
func compatible(want, got cty.Value) []mismatch {
	c := checker{}
	c.compare(nil, want, got)
	return c.found
}

type checker struct {
	found []mismatch
}

const maxMismatches = 5

func (c *checker) add(path cty.Path, want, got cty.Value) {
	if len(c.found) < maxMismatches {
		c.found = append(c.found, mismatch{path: path.Copy(), want: want, got: got})
	}
}

func (c *checker) compare(path cty.Path, want, got cty.Value) {
	switch {
	case !want.IsKnown():
		return
	case !got.IsKnown() || want.IsNull() != got.IsNull():
		c.add(path, want, got)
		return
	case want.IsNull():
		return
	}
	ty := want.Type()
	switch {
	case ty.IsPrimitiveType():
		if rawEquals(want, got) {
			return // as Equals would say, without making numbers integers to compare them
		}
		if !got.Type().Equals(ty) || !want.Equals(got).True() {
			c.add(path, want, got)
		}
	case ty.IsSetType():
		if want.IsWhollyKnown() && !rawEquals(want, got) {
			c.add(path, want, got)
		}
	case ty.IsListType(), ty.IsTupleType():
		c.sequence(path, want, got)
	case ty.IsMapType(), ty.IsObjectType():
		c.keyed(path, want, got)
	default:
		if !rawEquals(want, got) {
			c.add(path, want, got)
		}
	}
}

func (c *checker) sequence(path cty.Path, want, got cty.Value) {
	if !got.CanIterateElements() || want.LengthInt() != got.LengthInt() {
		c.add(path, want, got)
		return
	}
	for i := 0; i < want.LengthInt(); i++ {
		k := cty.NumberIntVal(int64(i))
		c.compare(path.Index(k), want.Index(k), got.Index(k))
	}
}

func (c *checker) keyed(path cty.Path, want, got cty.Value) {
	if !got.CanIterateElements() || want.LengthInt() != got.LengthInt() {
		c.add(path, want, got)
		return
	}
	obj := want.Type().IsObjectType()
	for it := want.ElementIterator(); it.Next(); {
		k, w := it.Element()
		name := k.AsString()
		var g cty.Value
		switch {
		case obj && got.Type().IsObjectType() && got.Type().HasAttribute(name):
			g = got.GetAttr(name)
		case !obj && got.Type().IsMapType() && got.HasIndex(k).True():
			g = got.Index(k)
		default:
			c.add(path, want, got)
			return
		}
		if rawEquals(w, g) {
			continue // kept as promised: no path to make
		}
		if obj {
			c.compare(path.GetAttr(name), w, g)
		} else {
			c.compare(path.Index(k), w, g)
		}
	}
}

// unknownPaths lists where a value still holds unknowns (a provider must
// not return any after apply or read).
func unknownPaths(v cty.Value) []cty.Path {
	if whollyKnown(v) {
		return nil // the rule: decided without a walk that makes a path per value
	}
	var out []cty.Path
	_ = cty.Walk(v, func(p cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			out = append(out, p.Copy())
			return false, nil
		}
		return true, nil
	})
	return out
}

// whollyKnown is v.IsWhollyKnown, except that an object's attributes are
// visited by name, without cty's iterator (which sorts the names and
// makes a value of each, per object).
func whollyKnown(v cty.Value) bool {
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return false
	case v.IsNull():
		return true
	case v.Type().IsObjectType():
		for name := range v.Type().AttributeTypes() {
			if !whollyKnown(v.GetAttr(name)) {
				return false
			}
		}
		return true
	}
	return v.IsWhollyKnown()
}

// describeValue renders a value for an error message, hiding it when the
// attribute is sensitive.
func describeValue(v cty.Value, sensitive bool) string {
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	case sensitive:
		return "(sensitive value)"
	}
	return fromCty(v).String()
}

func (m mismatch) describe(s *schema) string {
	sens := isSensitivePath(s.block, m.path)
	return fmt.Sprintf("%s: was %s, but now %s", formatPath(m.path), describeValue(m.want, sens), describeValue(m.got, sens))
}
