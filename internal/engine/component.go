package engine

import (
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// componentStep generates the step of a component resource: kept as it is
// outside the targets, else created or recorded as the same.
func (d *deployment) componentStep(urn resource.URN, reg *Registration) step {
	old := d.recs.current(urn)
	if !d.targets.has(urn) {
		if old != nil {
			return keepStep{registered(old)}
		}
		return keepStep{Registered{URN: urn, Outputs: resource.Object{}}}
	}
	return componentStep{urn: urn, reg: reg, old: old}
}

// componentOutputs records the outputs a program registered on a
// component.
func (d *deployment) componentOutputs(urn resource.URN, outputs resource.Object) error {
	defer d.x.outputsRegistered(urn, outputs) // its after hooks, once recorded
	unlock := d.locks.lock(urn)
	defer unlock()
	old := d.recs.current(urn)
	if old == nil || old.Custom || old.Outputs.Equal(outputs) {
		return nil
	}
	nr := old.Clone()
	nr.Outputs, nr.Modified = outputs, d.opts.now()
	return d.x.write(state.OpSame, old, nr)
}
