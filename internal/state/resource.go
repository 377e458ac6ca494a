package state

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Resource is one resource as recorded in state.
type Resource struct {
	URN    resource.URN
	Type   string
	Custom bool
	// ID is the provider's ID for a custom resource; "" for a component.
	ID string
	// SecretID says the ID was derived from a secret input: it is stored
	// sealed like a secret value and shown masked.
	SecretID bool
	Inputs   resource.Object
	Outputs  resource.Object
	Parent   resource.URN
	// Provider references the provider resource that manages a custom
	// resource, as "<provider URN>::<provider ID>".
	Provider             string
	Dependencies         []resource.URN
	PropertyDependencies map[string][]resource.URN
	// DependencyGroups are resource-level dependencies on counted or
	// for_each resources, as Terraform records them: each names a group
	// URN (GroupOf: an instance's URN without its instance key) and the
	// resource depends on every instance in that group. Two counted
	// resources of n instances so cost n entries, not n×n.
	DependencyGroups []resource.URN

	Protect             bool
	RetainOnDelete      bool
	DeleteBeforeReplace bool
	IgnoreChanges       []string
	ReplaceOnChanges    []string
	CustomTimeouts      CustomTimeouts

	// External marks a resource the program reads (Pulumi's `get`
	// functions, ReadResource) rather than manages: it is recorded with
	// what its provider's Read returned so that other resources can
	// depend on it, but plinth never creates, updates or deletes it; a
	// destroy, or a program that stops reading it, only drops the record.
	External bool
	// DeletedWith names a resource that deletes this one along with
	// itself (Pulumi's deletedWith option): when both are deleted in one
	// operation, this one's provider Delete is skipped and its record
	// just dropped.
	DeletedWith resource.URN
	// AdditionalSecretOutputs names outputs that are stored and returned
	// as secrets whatever the provider says (Pulumi's
	// additionalSecretOutputs option).
	AdditionalSecretOutputs []string

	// Delete marks a resource replaced by a newer one with the same URN and
	// awaiting deletion. Only such resources may share a URN.
	Delete bool
	// Missing marks a custom resource that a refresh found deleted outside
	// plinth while other recorded resources depend on it. It stays recorded
	// (with its last ID and outputs) so that their dependencies hold; it is
	// never read or deleted through its provider, and the next update
	// creates it again or, if the program no longer declares it, drops it.
	Missing bool
	// Tainted marks a resource whose creation is known to be incomplete
	// (Terraform's "tainted" status, Pulumi's taint): the next update
	// replaces it even when its inputs are unchanged. The state records it;
	// the engine is what honours it.
	Tainted bool
	// InitErrors holds why a resource that was created failed to initialise.
	InitErrors []string
	// Private is opaque provider data handed back on every call.
	Private []byte
	// InputTypes are the types the program gave top-level inputs of
	// dynamic type (a Terraform schema's DynamicPseudoType: terraform_data's
	// input and triggers_replace), by name, as JSON in the program's type
	// system; a Terraform state records them beside the values. Nil for
	// other resources and for records written before them.
	InputTypes map[string]json.RawMessage
	// DestroyProvisioners are the resource's `when = destroy` provisioners
	// as last registered, kept so that they run before it is deleted even
	// when the program no longer declares it.
	DestroyProvisioners []Provisioner
	// DeleteHooks name the program's resource hooks that run before and
	// after the resource is deleted (Pulumi's beforeDelete and
	// afterDelete), kept so that they run even when the program no
	// longer declares it: the program registers the hooks by name.
	DeleteHooks DeleteHooks

	Created  time.Time
	Modified time.Time
}

// Provisioner is a destroy-time provisioner as recorded: its type (a
// built-in such as local-exec, or a plugin's name), its evaluated
// configuration and connection, whether a failure is ignored, and its
// timeout (zero: the resource's delete timeout).
type Provisioner struct {
	Type       string
	Config     resource.Object
	Connection resource.Object
	Continue   bool
	Timeout    time.Duration
}

// DeleteHooks are the names of the hooks a resource's delete runs:
// before and after it, and its error hooks (Pulumi's onError) if it
// fails.
type DeleteHooks struct {
	Before, After, OnError []string
}

// Empty reports whether there are no delete hooks.
func (h DeleteHooks) Empty() bool { return len(h.Before)+len(h.After)+len(h.OnError) == 0 }

// Equal reports whether two sets of delete hooks name the same hooks in
// the same order.
func (h DeleteHooks) Equal(o DeleteHooks) bool {
	return slices.Equal(h.Before, o.Before) && slices.Equal(h.After, o.After) && slices.Equal(h.OnError, o.OnError)
}

// CustomTimeouts bounds the provider calls for one resource; zero means the
// provider's default.
type CustomTimeouts struct {
	Create time.Duration
	Update time.Duration
	Delete time.Duration
}

// Clone returns a copy of r that shares no slices or maps with it (values
// themselves are immutable and shared).
func (r *Resource) Clone() *Resource {
	c := *r
	c.Inputs = r.Inputs.Copy()
	c.Outputs = r.Outputs.Copy()
	c.Dependencies = append([]resource.URN(nil), r.Dependencies...)
	if r.DependencyGroups != nil {
		c.DependencyGroups = append([]resource.URN(nil), r.DependencyGroups...)
	}
	if r.PropertyDependencies != nil {
		c.PropertyDependencies = make(map[string][]resource.URN, len(r.PropertyDependencies))
		for k, v := range r.PropertyDependencies {
			c.PropertyDependencies[k] = append([]resource.URN(nil), v...)
		}
	}
	c.IgnoreChanges = append([]string(nil), r.IgnoreChanges...)
	c.AdditionalSecretOutputs = slices.Clone(r.AdditionalSecretOutputs)
	c.DestroyProvisioners = slices.Clone(r.DestroyProvisioners)
	c.DeleteHooks = DeleteHooks{Before: slices.Clone(r.DeleteHooks.Before), After: slices.Clone(r.DeleteHooks.After), OnError: slices.Clone(r.DeleteHooks.OnError)}
	c.ReplaceOnChanges = append([]string(nil), r.ReplaceOnChanges...)
	c.InitErrors = append([]string(nil), r.InitErrors...)
	c.Private = append([]byte(nil), r.Private...)
	c.InputTypes = maps.Clone(r.InputTypes)
	return &c
}

// References returns every URN r refers to: parent, provider, dependencies
// and property dependencies, without duplicates; then its dependency
// groups (an index by URN answers for those when built with URNKeys).
func (r *Resource) References() []resource.URN {
	seen := map[resource.URN]bool{}
	var out []resource.URN
	add := func(u resource.URN) {
		if u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	add(r.Parent)
	if r.Provider != "" {
		if u, _, err := ParseProviderRef(r.Provider); err == nil {
			add(u)
		}
	}
	for _, d := range r.Dependencies {
		add(d)
	}
	for _, deps := range r.PropertyDependencies {
		for _, d := range deps {
			add(d)
		}
	}
	for _, g := range r.DependencyGroups {
		add(g)
	}
	return out
}

// Key identifies one recorded resource: its URN, ID and whether it is
// pending deletion. Only pending deletions can share a URN with another
// resource, and those differ by ID.
type Key struct {
	URN    resource.URN
	ID     string
	Delete bool
}

// Key returns r's identity.
func (r *Resource) Key() Key { return Key{URN: r.URN, ID: r.ID, Delete: r.Delete} }

// Rereferenced returns r with every reference to the URN from (parent,
// provider, dependencies, property dependencies) made to the URN to
// instead; r itself if it has none.
func (r *Resource) Rereferenced(from, to resource.URN) *Resource {
	if !slices.Contains(r.References(), from) {
		return r
	}
	c := r.Clone()
	swap := func(u resource.URN) resource.URN {
		if u == from {
			return to
		}
		return u
	}
	c.Parent = swap(c.Parent)
	if u, id, err := ParseProviderRef(c.Provider); err == nil && u == from {
		c.Provider = ProviderRef(to, id)
	}
	for i, d := range c.Dependencies {
		c.Dependencies[i] = swap(d)
	}
	for i, g := range c.DependencyGroups {
		c.DependencyGroups[i] = swap(g)
	}
	for _, deps := range c.PropertyDependencies {
		for i, d := range deps {
			deps[i] = swap(d)
		}
	}
	return c
}
