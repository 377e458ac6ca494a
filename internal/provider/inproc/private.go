package inproc

import (
	sdk "github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The SDK returns a resource's private data as an output
// (sdk.PrivateProperty); the engine keeps private data beside the state.
// These move it between the two, so the engine never shows it as an
// output.

// takePrivate removes the private data from outputs and returns it, or
// keep when there is none.
func takePrivate(outputs resource.Object, keep []byte) (resource.Object, []byte) {
	if _, ok := outputs[sdk.PrivateProperty]; !ok {
		return outputs, keep
	}
	private := sdk.PrivateData(outputs)
	outs := outputs.Copy()
	delete(outs, sdk.PrivateProperty)
	return outs, private
}

// givePrivate returns outputs with the engine's private data where the
// SDK looks for it.
func givePrivate(outputs resource.Object, private []byte) resource.Object {
	if private == nil {
		return outputs
	}
	outs := outputs.Copy()
	if outs == nil {
		outs = resource.Object{}
	}
	outs[sdk.PrivateProperty] = sdk.PrivateValue(private)
	return outs
}
