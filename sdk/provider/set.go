package provider

import (
	"fmt"
	"sort"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// checkDistinct reports the second of two equal known elements of a set.
func checkDistinct(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	v = v.SecretElement()
	if v.Kind() != resource.ArrayKind {
		return
	}
	elems := v.Array()
	for i, e := range elems {
		for j := 0; j < i; j++ {
			a, b := e.SecretElement(), elems[j].SecretElement()
			if a.IsUnknown() || b.IsUnknown() || !a.Equal(b) {
				continue
			}
			*fs = append(*fs, CheckFailure{Property: join(p, i).String(),
				Reason: fmt.Sprintf("%s is also element %d; a set holds each value once", a, j)})
			break
		}
	}
}

// sortedSet returns a set's elements in a fixed order (booleans, then
// numbers, then strings, each ascending; objects by their properties in
// name order, compared the same way), so two programs listing the same
// elements in another order check to the same inputs and diff as equal. A
// set with an unknown element, at any depth, is left as it is.
func sortedSet(v resource.Value) resource.Value {
	secret := v.IsSecret()
	plain := v.SecretElement()
	if plain.Kind() != resource.ArrayKind || plain.ContainsUnknowns() {
		return v
	}
	elems := append([]resource.Value(nil), plain.Array()...)
	sort.SliceStable(elems, func(i, j int) bool { return setLess(elems[i].SecretElement(), elems[j].SecretElement()) })
	out := resource.NewArray(elems...)
	if secret {
		out = resource.MakeSecret(out)
	}
	return out
}

func setLess(a, b resource.Value) bool {
	if a.Kind() != b.Kind() {
		return a.Kind() < b.Kind()
	}
	switch a.Kind() {
	case resource.BoolKind:
		return !a.Bool() && b.Bool()
	case resource.NumberKind:
		return a.BigNumber().Cmp(b.BigNumber()) < 0
	case resource.StringKind:
		return a.Str() < b.Str()
	case resource.ObjectKind:
		return objectLess(a.Object(), b.Object())
	case resource.ArrayKind:
		x, y := a.Array(), b.Array()
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := compare(x[i], y[i]); c != 0 {
				return c < 0
			}
		}
		return len(x) < len(y)
	}
	return false
}

// objectLess orders objects by their properties in name order: the first
// name one lacks (a missing or null property sorts first), or the first
// value that differs, decides.
func objectLess(a, b resource.Object) bool {
	names := map[string]bool{}
	for k := range a {
		names[k] = true
	}
	for k := range b {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if c := compare(a[k], b[k]); c != 0 {
			return c < 0
		}
	}
	return false
}

// compare is -1, 0 or 1 as a sorts before, with or after b in a set.
func compare(a, b resource.Value) int {
	a, b = a.SecretElement(), b.SecretElement()
	switch {
	case setLess(a, b):
		return -1
	case setLess(b, a):
		return 1
	}
	return 0
}
