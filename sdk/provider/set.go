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
// numbers, then strings, each ascending), so two programs listing the same
// elements in another order check to the same inputs and diff as equal. A
// set with an unknown element is left as it is.
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
	}
	return false
}
