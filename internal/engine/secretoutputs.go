package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// sealSecrets makes a record hold as secret everything that must be:
// the properties its additionalSecretOutputs option names, in its outputs
// and (as Pulumi does) its inputs, and every output derived from a secret
// input (sealDerived). It runs before a record is written and before a
// step's outputs reach the program, so the state stores them sealed and
// the program gets them back as secrets. Diffs look through secrets, so
// sealing changes no diff.
func sealSecrets(r *state.Resource) {
	if r == nil {
		return
	}
	if len(r.AdditionalSecretOutputs) > 0 {
		r.Inputs = sealed(r.Inputs, r.AdditionalSecretOutputs)
		r.Outputs = sealed(r.Outputs, r.AdditionalSecretOutputs)
	}
	r.Outputs = sealDerived(r.Outputs, r.Inputs)
}

// sealed returns o with the named top-level properties secret: o itself
// if they are already, else a copy, as a provider's response or the
// program's inputs may share o.
func sealed(o resource.Object, names []string) resource.Object {
	copied := false
	for _, k := range names {
		v, ok := o[k]
		if !ok || v.IsSecret() {
			continue
		}
		if !copied {
			o, copied = o.Copy(), true
		}
		o[k] = resource.MakeSecret(v)
	}
	return o
}

// sealDerived returns outs with each property that holds what a secret
// in the property of the same name in ins held made secret, so that a
// provider echoing a secret input back as a plain output (one that does
// not accept secrets, or drops their marks) stores and shows nothing in
// the clear. It returns outs itself when nothing changes, else a copy.
//
// The rule, per property present in both: an output already secret, or
// whose input holds no secret, stays as it is; an input that is a secret
// as a whole seals the whole output (Pulumi's engine does this for every
// provider); an output equal to its input but for the marks gets the
// input's marks back; where both are objects, their properties are compared in
// turn, so one secret deep in a map does not seal the map; an output
// that holds secrets of its own (a provider that kept the marks, as in a
// list whose secret element stays secret) is trusted; any other output
// whose input holds a secret is sealed as a whole (a list's elements may
// come back reordered, a string may be built from the secret). Nulls
// hold nothing and stay as they are.
func sealDerived(outs, ins resource.Object) resource.Object {
	sealed, _ := sealDerivedObject(outs, ins)
	return sealed
}

// sealDerivedObject is sealDerived, saying whether it changed anything.
func sealDerivedObject(outs, ins resource.Object) (resource.Object, bool) {
	var copied resource.Object
	for k, in := range ins {
		out, ok := outs[k]
		if !ok {
			continue
		}
		if nv, changed := derived(out, in); changed {
			if copied == nil {
				copied = outs.Copy()
			}
			copied[k] = nv
		}
	}
	if copied == nil {
		return outs, false
	}
	return copied, true
}

// derived applies sealDerived's rule to one output and its input.
func derived(out, in resource.Value) (resource.Value, bool) {
	switch {
	case out.IsSecret() || out.IsNull() || !in.ContainsSecrets():
		return out, false
	case in.IsSecret():
		return resource.MakeSecret(out), true
	case sameInTheClear(out, in):
		return in, true
	case out.Kind() == resource.ObjectKind && in.Kind() == resource.ObjectKind:
		o, changed := sealDerivedObject(out.Object(), in.Object())
		return resource.NewObject(o), changed
	case out.ContainsSecrets():
		return out, false
	}
	return resource.MakeSecret(out), true
}

// sameInTheClear reports whether out, which holds no secret, is in with
// its secrets opened.
func sameInTheClear(out, in resource.Value) bool {
	if out.ContainsSecrets() {
		return false
	}
	plain, _ := in.Unsecret()
	return out.Equal(plain)
}
