package provider

import (
	"encoding/base64"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// PrivateProperty is the output under which the SDK keeps a resource's
// private data: bytes a resource returns in CreateResult.Private (or an
// Update or Read result) and gets back in later ops, never shown to a
// program. Pulumi keeps it there, a secret base64 string; tfserve moves it
// into Terraform's private state and plinth's in-process adapter
// (internal/provider/inproc) into the engine's. Property names starting with "__" are reserved for it.
const PrivateProperty = "__private"

// privateOf returns the private data recorded in outputs, or nil.
func privateOf(outputs resource.Object) []byte {
	v := outputs[PrivateProperty].SecretElement()
	if v.Kind() != resource.StringKind {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(v.Str())
	if err != nil {
		return nil
	}
	return b
}

// withPrivate records private in outs; nil keeps what old recorded (an
// op that does not set it leaves it as it was).
func withPrivate(outs resource.Object, private []byte, old resource.Object) resource.Object {
	if outs == nil {
		return outs
	}
	if private == nil {
		if v, ok := old[PrivateProperty]; ok {
			outs[PrivateProperty] = v
		}
		return outs
	}
	outs[PrivateProperty] = PrivateValue(private)
	return outs
}

// PrivateValue is how private data is recorded in outputs under
// PrivateProperty.
func PrivateValue(private []byte) resource.Value {
	return resource.MakeSecret(resource.NewString(base64.StdEncoding.EncodeToString(private)))
}

// PrivateData returns the private data outputs record under
// PrivateProperty, or nil; servers use it to move the data elsewhere.
func PrivateData(outputs resource.Object) []byte { return privateOf(outputs) }
