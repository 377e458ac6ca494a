package tftest

import (
	"context"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/plinth-iac/plinth/internal/engine"
	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// planOptions is a run's plan_options block: resources to replace and
// to target, by address, and mode = refresh-only. refresh is accepted:
// plinth test's runs do not read resources back from their providers,
// which is what refresh = false asks, and a test's state is its own, so
// reading back finds nothing changed.
type planOptions struct {
	replace, target []hcl.Traversal
	refreshOnly     bool
}

var planOptionsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
}}

// decodePlanOptions reads a run's plan_options block.
func (r *Run) decodePlanOptions(blk *hcl.Block) hcl.Diagnostics {
	c, ds := blk.Body.Content(planOptionsSchema)
	if ds.HasErrors() {
		return ds
	}
	po := &planOptions{}
	if a, ok := c.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(a.Expr) {
		case "normal":
		case "refresh-only":
			po.refreshOnly = true
		default:
			ds = append(ds, errorAt(a.Expr.Range(), "Invalid plan mode",
				"The mode of plan_options is the keyword normal or refresh-only."))
		}
	}
	if a, ok := c.Attributes["refresh"]; ok {
		if v, more := a.Expr.Value(nil); more.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type().FriendlyName() != "bool" {
			ds = append(ds, errorAt(a.Expr.Range(), "Invalid refresh option", "The refresh of plan_options is true or false."))
		}
	}
	for name, into := range map[string]*[]hcl.Traversal{"replace": &po.replace, "target": &po.target} {
		if a, ok := c.Attributes[name]; ok {
			ts, more := addressList(a.Expr, name)
			*into = ts
			ds = append(ds, more...)
		}
	}
	r.plan = po
	return ds
}

// addressList reads a list of resource references (replace, target).
func addressList(e hcl.Expression, name string) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, ds := hcl.ExprList(e)
	if ds.HasErrors() {
		return nil, hcl.Diagnostics{errorAt(e.Range(), "Invalid "+name, "The %s of plan_options is a list of resource references, such as [random_pet.name].", name)}
	}
	var out []hcl.Traversal
	for _, x := range exprs {
		t, more := hcl.AbsTraversalForExpr(x)
		if more.HasErrors() {
			ds = append(ds, errorAt(x.Range(), "Invalid "+name, "Each element of %s is a reference to a resource or module call, such as random_pet.name or module.site; an expression is not allowed.", name))
			continue
		}
		out = append(out, t)
	}
	return out, ds
}

// withPlanOptions sets the run's targets and replacements in opts: each
// address becomes the URNs of the resources it names among those the
// state records and, for targets, those the configuration plans (learn
// previews it untargeted). An address naming none fails the run.
func (r *Run) withPlanOptions(ctx context.Context, opts engine.Options, snap *state.Snapshot, learn engine.Program) (engine.Options, []diag) {
	if r.plan == nil || len(r.plan.replace)+len(r.plan.target) == 0 {
		return opts, nil
	}
	known := recordedURNs(snap)
	replace, bad := resolveURNs(r.plan.replace, known, "replace")
	if len(bad) > 0 {
		return opts, bad
	}
	if len(r.plan.target) > 0 {
		planned, err := plannedURNs(ctx, learn, snap, opts)
		if err != nil {
			return opts, diagsOf(err)
		}
		known = append(known, planned...)
	}
	target, bad := resolveURNs(r.plan.target, known, "target")
	opts.Replace, opts.Targets = replace, target
	return opts, bad
}

// recordedURNs are the URNs of the resources a snapshot records.
func recordedURNs(snap *state.Snapshot) []resource.URN {
	if snap == nil {
		return nil
	}
	out := make([]resource.URN, 0, len(snap.Resources))
	for _, res := range snap.Resources {
		out = append(out, res.URN)
	}
	return out
}

// plannedURNs previews the program without targets and lists the URNs
// of the resources it registers.
func plannedURNs(ctx context.Context, p engine.Program, snap *state.Snapshot, opts engine.Options) ([]resource.URN, error) {
	var mu sync.Mutex
	var out []resource.URN
	opts.Journal, opts.Targets, opts.Replace = nil, nil, nil
	opts.Events = func(e engine.Event) {
		if e.Kind == engine.EventStepDone && e.URN != "" {
			mu.Lock()
			out = append(out, e.URN)
			mu.Unlock()
		}
	}
	_, err := engine.Preview(ctx, p, snap, opts)
	return out, err
}

// resolveURNs maps each address to the URNs among known whose names it
// names: the resource, every instance of a counted one
// (random_pet.a names random_pet.a[0]), everything under a module call.
func resolveURNs(addrs []hcl.Traversal, known []resource.URN, name string) ([]resource.URN, []diag) {
	var out []resource.URN
	var bad []diag
	for _, t := range addrs {
		addr := traversalAddr(t)
		n := len(out)
		seen := map[resource.URN]bool{}
		for _, u := range known {
			if !seen[u] && !state.IsProviderType(u.Type()) && namesResource(addr, u.Name()) {
				seen[u] = true
				out = append(out, u)
			}
		}
		if len(out) == n {
			bad = append(bad, diagAt(t.SourceRange(), hcl.DiagError, "Invalid "+name+" address",
				"%s names no resource of the module this run tests, planned or in its state. Name a resource, such as random_pet.name, or a module call.", addr))
		}
	}
	return out, bad
}

// namesResource reports whether the address addr names the resource
// named name.
func namesResource(addr, name string) bool {
	if name == addr {
		return true
	}
	rest, ok := strings.CutPrefix(name, addr)
	return ok && (rest[0] == '[' || rest[0] == '.' && strings.HasPrefix(addr, "module."))
}

// refreshOnly runs a run with plan_options { mode = refresh-only }, as
// terraform's refresh-only plan: the resources the state records are
// read back from their providers (and, for command = apply, the state
// keeps what they read), nothing is created, changed or destroyed, data
// sources are read, and the outputs and assertions see the state's
// values; a resource the state does not record is unknown.
func (fr *fileRunner) refreshOnly(ctx context.Context, r *Run, ms *modState, sc *tfhcl.Scoped, mocks Mocks, rv runVars, warns *collector) result {
	snap := ms.snap
	if len(snap.Resources) > 0 {
		j := state.NewMemoryJournal(snap)
		if _, err := engine.Refresh(ctx, snap, fr.c.Options(j, mocks)); err != nil {
			return fr.judge(r, ms, nil, err, warns.take(), false)
		}
		snap = j.Snapshot()
	}
	opts := fr.c.Options(nil, mocks)
	planned, err := plannedURNs(ctx, sc.Planning(), snap, opts)
	if err != nil {
		return fr.judge(r, ms, nil, err, warns.take(), false)
	}
	warns.take() // learning what the configuration plans evaluated it once already
	for _, u := range append(recordedURNs(snap), planned...) {
		if !state.IsProviderType(u.Type()) {
			opts.Excludes = append(opts.Excludes, u)
		}
	}
	plan := sc.Planning()
	_, err = engine.Preview(ctx, plan, snap, opts)
	if err == nil && r.Command == Apply {
		ms.snap, ms.vars, ms.mocks = snap, rv, mocks
	}
	return fr.judge(r, ms, plan, err, warns.take(), false)
}
