package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// sealAdditionalSecrets marks as secret the properties a resource's
// additionalSecretOutputs option names, in its outputs and (as Pulumi
// does) its inputs, before its record is written: the state stores them
// sealed, and the program gets them back as secrets. Diffs look through
// secrets, so sealing changes no diff.
func sealAdditionalSecrets(r *state.Resource) {
	if r == nil || len(r.AdditionalSecretOutputs) == 0 {
		return
	}
	r.Inputs = sealed(r.Inputs, r.AdditionalSecretOutputs)
	r.Outputs = sealed(r.Outputs, r.AdditionalSecretOutputs)
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
