package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// sealAdditionalSecrets marks as secret the outputs a resource's
// additionalSecretOutputs option names, before its record is written: the
// state stores them sealed, and the program gets them back as secrets.
// The outputs are copied first, as a provider's response or the inputs
// may share them.
func sealAdditionalSecrets(r *state.Resource) {
	if r == nil || len(r.AdditionalSecretOutputs) == 0 {
		return
	}
	copied := false
	for _, k := range r.AdditionalSecretOutputs {
		v, ok := r.Outputs[k]
		if !ok || v.IsSecret() {
			continue
		}
		if !copied {
			r.Outputs, copied = r.Outputs.Copy(), true
		}
		r.Outputs[k] = resource.MakeSecret(v)
	}
}
