package engine

import (
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// componentStep records a component resource: no provider is involved;
// its inputs are recorded and its outputs come from RegisterOutputs.
func (d *deployment) componentStep(urn resource.URN, reg *Registration) (Registered, error) {
	old := d.current(urn)
	if !d.targets.has(urn) {
		if old != nil {
			return registered(old), nil
		}
		return Registered{URN: urn, Outputs: resource.Object{}}, nil
	}
	nr := d.newResource(urn, reg, reg.Inputs, "")
	nr.Outputs = resource.Object{}
	op := OpCreate
	var err error
	switch {
	case old == nil:
		err = d.write(state.OpCreate, nil, nr)
	default:
		op = OpSame
		nr.Outputs, nr.Created, nr.Modified = old.Outputs, old.Created, old.Modified
		if !sameRecord(old, nr) {
			nr.Modified = d.opts.now()
			err = d.write(state.OpSame, old, nr)
		}
	}
	if err != nil {
		return Registered{}, err
	}
	d.count(op)
	d.done(op, old, nr, nil, time.Now(), nil)
	return Registered{URN: urn, Outputs: nr.Outputs}, nil
}

// componentOutputs records the outputs a program registered on a
// component.
func (d *deployment) componentOutputs(urn resource.URN, outputs resource.Object) error {
	unlock := d.locks.lock(urn)
	defer unlock()
	old := d.current(urn)
	if old == nil || old.Custom || old.Outputs.Equal(outputs) {
		return nil
	}
	nr := old.Clone()
	nr.Outputs, nr.Modified = outputs, d.opts.now()
	return d.write(state.OpSame, old, nr)
}

// findRecorded returns the recorded resource with the URN and ID, live or
// pending deletion.
func (d *deployment) findRecorded(urn resource.URN, id string) *state.Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.cur[urn]; r != nil && r.ID == id {
		return r
	}
	for _, r := range d.deletes {
		if r.URN == urn && r.ID == id {
			return r
		}
	}
	return nil
}
