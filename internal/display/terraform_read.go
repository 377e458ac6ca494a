package display

import (
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// opReadDuringApply and opReadPending mark a data source a preview could
// not read: its arguments are not yet known, or it depends on changes
// pending; opReadCheck one nested in a check block, which is read again
// during every apply. Only the Terraform-style view shows them, with
// terraform's "<=" and its line saying why.
const (
	opReadDuringApply engine.StepOp = "read-during-apply"
	opReadPending     engine.StepOp = "read-during-apply-pending"
	opReadCheck       engine.StepOp = "read-during-apply-check"
)

// tfReadReasons are terraform's lines for why a read waits for apply.
var tfReadReasons = map[engine.StepOp]string{
	opReadDuringApply: "(config refers to values not yet known)",
	opReadPending:     "(depends on a resource or a module with changes pending)",
	opReadCheck:       "(config will be reloaded to verify a check block)",
}

// readOps are the ops of the reasons a read waits for apply.
var readOps = map[program.DeferReason]engine.StepOp{
	program.ReadConfigUnknown:     opReadDuringApply,
	program.ReadDependencyPending: opReadPending,
	program.ReadCheckNested:       opReadCheck,
}

// DeferredRead tells a Terraform-style view that a preview leaves the data
// source at urn (of type typ, with arguments args) to be read during
// apply, for the reason given; other views do not show it, as plinth has
// no such step.
func DeferredRead(v View, urn resource.URN, typ string, args resource.Object, reason program.DeferReason) {
	if s, ok := v.(scrubbedView); ok {
		v = s.View
	}
	tv, ok := v.(*terraformView)
	if !ok {
		return
	}
	r := &state.Resource{URN: urn, Type: typ, Inputs: args}
	tv.Event(engine.Event{Kind: engine.EventStepDone, Op: readOps[reason], URN: urn, Type: typ, Preview: true, New: r})
}
