package engine

import "github.com/plinth-iac/plinth/sdk/resource"

// RecordedResource is what the state records of a live resource, as a
// program reads it back by URN (Pulumi's getResource invoke, behind
// `new Resource(name, {}, {urn})`).
type RecordedResource struct {
	URN     resource.URN
	ID      string // "" for a component
	Custom  bool
	Outputs resource.Object
}

// Lookup returns the live resource the state records under urn, as the
// operation has it so far: recorded before the operation, or by one of
// its steps. ok is false if there is none.
func (m monitor) Lookup(urn resource.URN) (r RecordedResource, ok bool) {
	rec := m.d.recs.current(urn)
	if rec == nil {
		return RecordedResource{}, false
	}
	return RecordedResource{URN: rec.URN, ID: rec.ID, Custom: rec.Custom, Outputs: rec.Outputs.Copy()}, true
}
