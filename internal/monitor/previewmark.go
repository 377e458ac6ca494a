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
	return resource.NewObject(o).Map(func(v resource.Value) resource.Value {
		if v.Kind() == resource.ObjectKind {
			delete(v.Object(), resourceMark) // Map built this object: it is ours
		}
		return v
	}).Object()
}
