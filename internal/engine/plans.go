package engine

import (
	"bytes"
	"slices"
	"sync"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Plans carries the plans a preview's providers made (a previewed
// create's or update's provider.CreateResponse.Plan) to the update that
// follows it in the same process, as `plinth up` runs them: the update
// hands a resource's plan back to its provider (CreateRequest.Plan), which
// can then apply it without planning the resource a second time.
//
// The same goes for the preview's Check and Diff responses: the update
// uses them instead of asking the provider again, on the same conditions.
//
// A plan is handed back only for the same step of the same resource, with
// the same provider resource and configuration, the same checked inputs
// and the same recorded state (ID, inputs, outputs, private data) as in
// the preview, none of them holding unknowns; anything else, and every
// resource the preview did not plan, is planned again. The provider checks
// again that the plan was made from exactly what it would plan from. Plans
// live in memory only and are used at most once: a later run (after a
// crash, say) previews afresh and plans everything again.
//
// Set the same Plans as Options.Plans of a Preview and of the Update that
// follows it; it is safe for concurrent use.
type Plans struct {
	mu   sync.Mutex
	kept map[planKey]keptPlan
}

// NewPlans returns an empty Plans.
func NewPlans() *Plans { return &Plans{kept: map[planKey]keptPlan{}} }

// planKey names a kept plan: a resource's create or update, or its diff
// (opDiff).
type planKey struct {
	urn resource.URN
	op  StepOp
}

// opDiff keeps a resource's Diff response, which for a Terraform provider
// is a plan too.
const opDiff StepOp = "diff"

// opCheck keeps a resource's checked inputs from a Check given its old
// inputs; opCheckFresh from a Check given none (a create's, or a
// replacement's). One step may make both: a replacement checks afresh
// after the Check against its old inputs chose to replace it.
const (
	opCheck      StepOp = "check"
	opCheckFresh StepOp = "check afresh"
)

// keptPlan is a plan and what it was made from.
type keptPlan struct {
	op       StepOp
	provider string
	config   resource.Object
	inputs   resource.Object
	ignore   []string
	old      *state.Resource
	plan     []byte
	diff     provider.DiffResponse
	checked  resource.Object // a Check's result; inputs are then what it checked
}

// planned describes what c's step op would be planned from.
func planned(c *change, op StepOp, plan []byte) keptPlan {
	urn, _, _ := state.ParseProviderRef(c.inst.ref)
	return keptPlan{op: op, provider: string(urn), config: c.inst.config, inputs: c.inputs, ignore: c.reg.IgnoreChanges, old: c.old, plan: plan}
}

// keep records the plan a preview made for c's step op.
func (ps *Plans) keep(c *change, op StepOp, plan []byte) {
	if ps == nil || len(plan) == 0 {
		return
	}
	k := planned(c, op, plan)
	if k.unknowns() {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.kept[planKey{c.urn, op}] = k
}

// take returns, and forgets, the preview's plan for c's step op if it was
// made from what the step will send now; otherwise nil.
func (ps *Plans) take(c *change, op StepOp) []byte {
	k, ok := ps.takeKept(c, op)
	if !ok {
		return nil
	}
	return k.plan
}

// takeKept returns, and forgets, what the preview kept for c's step op if
// it was made from what the step will send now.
func (ps *Plans) takeKept(c *change, op StepOp) (keptPlan, bool) {
	return ps.takeSame(planKey{c.urn, op}, func() keptPlan { return planned(c, op, nil) })
}

// takeSame returns, and forgets, what the preview kept under key if it was
// made from what now describes. now is only called for a key the preview
// kept: an update without a preview (--skip-preview) describes nothing.
func (ps *Plans) takeSame(key planKey, now func() keptPlan) (keptPlan, bool) {
	if ps == nil {
		return keptPlan{}, false
	}
	ps.mu.Lock()
	k, ok := ps.kept[key]
	if ok {
		delete(ps.kept, key)
	}
	ps.mu.Unlock()
	if !ok || !k.same(now()) {
		return keptPlan{}, false
	}
	return k, true
}

// checkOf describes a Check of news for c, with its old inputs or afresh
// (op opCheck or opCheckFresh).
func checkOf(c *change, op StepOp, news resource.Object) keptPlan {
	k := planned(c, op, nil)
	k.inputs = news
	return k
}

// keepCheck records the inputs a preview's provider checked news into.
func (ps *Plans) keepCheck(c *change, op StepOp, news, checked resource.Object) {
	if ps == nil {
		return
	}
	k := checkOf(c, op, news)
	if k.unknowns() || resource.NewObject(checked).ContainsUnknowns() {
		return
	}
	k.checked = checked
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.kept[planKey{c.urn, op}] = k
}

// keepDiff records the Diff response a preview's provider gave for c.
func (ps *Plans) keepDiff(c *change, resp provider.DiffResponse) {
	if ps == nil {
		return
	}
	k := planned(c, opDiff, nil)
	if k.unknowns() {
		return
	}
	k.diff = resp
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.kept[planKey{c.urn, opDiff}] = k
}

func (k keptPlan) unknowns() bool {
	return resource.NewObject(k.inputs).ContainsUnknowns() || resource.NewObject(k.config).ContainsUnknowns() || k.provider == ""
}

// same reports whether k was made from what n describes.
func (k keptPlan) same(n keptPlan) bool {
	return k.op == n.op && k.provider == n.provider && k.config.Equal(n.config) &&
		k.inputs.Equal(n.inputs) && slices.Equal(k.ignore, n.ignore) && samePrior(k.old, n.old) && !n.unknowns()
}

// samePrior reports whether two records (either nil) hold the same
// resource state as a provider plans from it.
func samePrior(a, b *state.Resource) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.Type == b.Type && a.Provider == b.Provider && a.Inputs.Equal(b.Inputs) &&
		a.Outputs.Equal(b.Outputs) && bytes.Equal(a.Private, b.Private)
}

// planOf is the preview's plan for c's step op, in an update.
func (x *executor) planOf(c *change, op StepOp) []byte {
	if x.preview {
		return nil
	}
	return x.opts.Plans.take(c, op)
}

// diffOf is the preview's Diff response for c, in an update, if it was
// made from what the update would send.
func (x *executor) diffOf(c *change) (provider.DiffResponse, bool) {
	if x.preview {
		return provider.DiffResponse{}, false
	}
	k, ok := x.opts.Plans.takeKept(c, opDiff)
	return k.diff, ok
}

// keepDiff keeps the Diff response a preview's provider gave for c.
func (x *executor) keepDiff(c *change, resp provider.DiffResponse) {
	if x.preview {
		x.opts.Plans.keepDiff(c, resp)
	}
}

// checkedOf is what the preview's provider checked news into for c, in
// an update, if the preview checked the same inputs against the same
// state with the same provider.
func (x *executor) checkedOf(c *change, op StepOp, news resource.Object) (resource.Object, bool) {
	if x.preview {
		return nil, false
	}
	k, ok := x.opts.Plans.takeSame(planKey{c.urn, op}, func() keptPlan { return checkOf(c, op, news) })
	return k.checked, ok
}

// keepCheck keeps what a preview's provider checked news into for c.
func (x *executor) keepCheck(c *change, op StepOp, news, checked resource.Object) {
	if x.preview {
		x.opts.Plans.keepCheck(c, op, news, checked)
	}
}

// keepPlan keeps the plan a preview's provider returned for c's step op.
func (x *executor) keepPlan(c *change, op StepOp, plan []byte) {
	if x.preview {
		x.opts.Plans.keep(c, op, plan)
	}
}
