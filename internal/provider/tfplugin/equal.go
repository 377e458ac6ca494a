package tfplugin

import "github.com/zclconf/go-cty/cty"

// rawEquals is cty's Value.RawEquals, made cheaper for what every plan
// compares many times over (the proposed state with the prior one, each
// planned attribute with its configuration): objects are compared
// attribute by attribute and known strings and bools directly, where
// cty's RawEquals asks Equals of every primitive (which walks it for
// marks and for unknown types, and allocates). Marked or unknown values,
// numbers and collections are left to cty.
func rawEquals(a, b cty.Value) bool {
	if a.IsMarked() || b.IsMarked() || !a.IsKnown() || !b.IsKnown() {
		return a.RawEquals(b)
	}
	ty := a.Type()
	switch {
	case !ty.Equals(b.Type()):
		return false
	case a.IsNull() || b.IsNull():
		return a.IsNull() == b.IsNull()
	case ty == cty.String:
		return a.AsString() == b.AsString()
	case ty == cty.Bool:
		return a.True() == b.True()
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !rawEquals(a.GetAttr(name), b.GetAttr(name)) {
				return false
			}
		}
		return true
	}
	return a.RawEquals(b)
}
