package engine

import (
	"sync"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// alikeInputs lets the state records of resources of one type with
// equal inputs share one inputs object. A large stack's resources are
// often alike (one module, one count made them), each provider returns
// its own copy of the inputs, and every property map costs a few hundred
// bytes however few its properties: 100,000 alike resources held 39 MB
// of equal inputs to the end of an update. Objects are never modified in
// place (every writer copies first), so sharing one is safe.
//
// It remembers the last few distinct inputs of each type and compares a
// new record's with those only, so a stack of all different inputs
// costs a few comparisons a resource. Only plain values are shared
// (null, bool, number, string, list, object): an asset, archive,
// reference, secret or unknown may be equal to another without being
// the same.
type alikeInputs struct {
	mu     sync.Mutex
	recent map[string][]resource.Object // by type, oldest first
}

// alikePerType is how many distinct inputs alikeInputs remembers a type.
const alikePerType = 4

// maxAlikeProperties bounds the objects alikeInputs compares.
const maxAlikeProperties = 16

// share returns an object equal to o that an earlier record of type typ
// holds, or o itself, remembering it.
func (a *alikeInputs) share(typ string, o resource.Object) resource.Object {
	if len(o) == 0 || len(o) > maxAlikeProperties || !plainObject(o) {
		return o
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := a.recent[typ]
	for _, c := range seen {
		if c.Equal(o) {
			return c
		}
	}
	if len(seen) == alikePerType {
		seen = append(seen[:0], seen[1:]...)
	}
	if a.recent == nil {
		a.recent = map[string][]resource.Object{}
	}
	a.recent[typ] = append(seen, o)
	return o
}

// plainObject reports whether o holds only plain values (see
// alikeInputs).
func plainObject(o resource.Object) bool {
	for _, v := range o {
		if !plainValue(v) {
			return false
		}
	}
	return true
}

func plainValue(v resource.Value) bool {
	switch v.Kind() {
	case resource.NullKind, resource.BoolKind, resource.StringKind:
		return true
	case resource.NumberKind:
		// A number kept with its literal compares by value, not text.
		return v.NumberLiteral() == resource.NewNumber(v.Number()).NumberLiteral()
	case resource.ArrayKind:
		for _, e := range v.Array() {
			if !plainValue(e) {
				return false
			}
		}
		return true
	case resource.ObjectKind:
		return plainObject(v.Object())
	}
	return false
}
