package display

import (
	"encoding/json"
	"fmt"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
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

// Reading tells a Terraform-style view that a data source read or an
// ephemeral resource's opening starts or completed, which it prints as
// terraform does ("data.x.y: Reading...", "data.x.y: Read complete
// after 0s [id=...]", "ephemeral.x.y: Opening..."); other views do not
// show it, as a read is no step of plinth's.
func Reading(v View, r program.Reading) {
	if s, ok := v.(scrubbedView); ok {
		v = s.View
	}
	if tv, ok := v.(*terraformView); ok {
		tv.reading(r)
	}
}

// reading prints a read's line, except, in an update, for a data source
// the preview before it already read (terraform reads those once, while
// it plans; plinth's update runs the configuration again). Each opened
// ephemeral resource is remembered, for closeLines.
func (v *terraformView) reading(r program.Reading) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case r.Ephemeral && r.Done:
		v.opened = append(v.opened, r.Address)
	case r.Ephemeral:
	case v.op.Preview:
		v.readInPreview[r.Address] = true
	case v.readInPreview[r.Address]:
		return
	}
	fmt.Fprintln(v.opts.Out, v.readingLine(r))
}

// readingLine is terraform's line for a read or opening.
func (v *terraformView) readingLine(r program.Reading) string {
	line := v.p.paint(colourBold, r.Address) + ": "
	switch {
	case r.Ephemeral && r.Done:
		return line + "Opening complete after " + tfDuration(r.Duration)
	case r.Ephemeral:
		return line + "Opening..."
	case !r.Done:
		return line + "Reading..."
	}
	line += "Read complete after " + tfDuration(r.Duration)
	return line + idSuffix(&state.Resource{ID: r.ID, SecretID: r.SecretID})
}

// closeLines are terraform's lines for closing the ephemeral resources
// an operation opened, last opened first: the engine closes them when
// the operation ends, and a failure to close fails the operation, so
// they are written only when it succeeded (the engine does not time
// them: "after 0s").
func (v *terraformView) closeLines(o Outcome) []string {
	var lines []string
	for i := len(v.opened) - 1; i >= 0 && o.Err == nil; i-- {
		addr := v.p.paint(colourBold, v.opened[i])
		lines = append(lines, addr+": Closing...", addr+": Closing complete after 0s")
	}
	v.opened = nil
	return lines
}

// TypeSchema gives a Terraform-style view the provider's schema of a
// resource or data source type, by which its plan shows nested blocks,
// sets, maps and objects as terraform does; other views do not need it.
func TypeSchema(v View, s program.TypeSchema) {
	if sv, ok := v.(scrubbedView); ok {
		v = sv.View
	}
	tv, ok := v.(*terraformView)
	if !ok {
		return
	}
	tv.mu.Lock()
	defer tv.mu.Unlock()
	if tv.schemas == nil {
		tv.schemas = map[string]map[string]schema.Property{}
	}
	tv.schemas[schemaKey(s.Type, s.Data)] = s.Properties
}

// schemaKey is where a view keeps the schema of type token, a data
// source's apart from a resource's of the same token.
func schemaKey(token string, data bool) string {
	if data {
		return "data " + token
	}
	return token
}

// schemaOf is the schema of the resource or data source a planned step
// shows, nil when the view has none.
func (v *terraformView) schemaOf(e engine.Event) map[string]schema.Property {
	_, data := tfReadReasons[e.Op]
	typ := e.Type
	if typ == "" {
		typ = e.URN.Type()
	}
	return v.schemas[schemaKey(typ, data)]
}

// OutputTypes gives a Terraform-style view the types of the root
// module's outputs, by which it writes them after an update as terraform
// does (tolist(...), toset(...), tomap(...)); other views do not need
// them.
func OutputTypes(v View, types map[string]json.RawMessage) {
	if sv, ok := v.(scrubbedView); ok {
		v = sv.View
	}
	if tv, ok := v.(*terraformView); ok {
		tv.mu.Lock()
		defer tv.mu.Unlock()
		tv.outputTypes = types
	}
}
