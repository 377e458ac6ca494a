package display

import (
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// opReadDuringApply marks a data source a preview could not read: its
// arguments are not yet known, or it depends on changes pending. Only
// the Terraform-style view shows it, with terraform's "<=".
const opReadDuringApply engine.StepOp = "read-during-apply"

// DeferredRead tells a Terraform-style view that a preview leaves the data
// source at urn (of type typ, with arguments args) to be read during
// apply; other views do not show it, as plinth has no such step.
func DeferredRead(v View, urn resource.URN, typ string, args resource.Object) {
	if s, ok := v.(scrubbedView); ok {
		v = s.View
	}
	tv, ok := v.(*terraformView)
	if !ok {
		return
	}
	r := &state.Resource{URN: urn, Type: typ, Inputs: args}
	tv.Event(engine.Event{Kind: engine.EventStepDone, Op: opReadDuringApply, URN: urn, Type: typ, Preview: true, New: r})
}
