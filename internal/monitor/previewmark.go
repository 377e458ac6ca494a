package monitor

import "github.com/plinth-iac/plinth/sdk/resource"

// resourceMark is the key the Node.js SDK adds, in a preview only, to a
// resource exported as a stack output ({"@isPulumiResource": true, urn,
// id, ...}); the same output in an update has no such key.
const resourceMark = "@isPulumiResource"

// withoutResourceMarks returns the stack outputs without the preview's
// resourceMark keys, at any depth. Kept, they made every preview of a
// program exporting a resource find its outputs changed (pulumi/pulumi's
// secret_outputs program): pulumi's display drops the key too.
func withoutResourceMarks(o resource.Object) resource.Object {
	out := make(resource.Object, len(o))
	for k, v := range o {
		out[k] = unmarked(v)
	}
	return out
}

func unmarked(v resource.Value) resource.Value {
	switch v.Kind() {
	case resource.SecretKind:
		return resource.MakeSecret(unmarked(v.SecretElement()))
	case resource.ArrayKind:
		elems := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = unmarked(e)
		}
		return resource.NewArray(elems...)
	case resource.ObjectKind:
		o := v.Object()
		if _, marked := o[resourceMark]; marked {
			o = o.Copy()
			delete(o, resourceMark)
		}
		return resource.NewObject(withoutResourceMarks(o))
	}
	return v
}
