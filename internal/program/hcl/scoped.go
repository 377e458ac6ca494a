package hcl

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Data sources nested in check blocks ("scoped" data sources), as
// terraform 1.11 has them: read during every plan and every apply, their
// failures warnings that skip their check's assertions, and only their
// check block may refer to them. Like every data source plinth reads,
// they are not recorded in the state.

// scopedRead tells the preview's display of a scoped data source read:
// terraform lists each as a read during apply, "(config will be reloaded
// to verify a check block)", with what the plan read.
func (r *run) scopedRead(rc *resourceConfig, inst *modInst, k instanceKey, token string, planned resource.Object) {
	if r.opts.DeferredRead == nil {
		return
	}
	r.opts.DeferredRead(program.DeferredRead{Address: inst.prefix + rc.addr() + k.suffix(), Type: token,
		Args: planned, Reason: program.ReadCheckNested})
}

// scopedFailed reports a scoped data source's failed read as a warning
// and marks its check block failed in this module instance, so that its
// assertions are not evaluated (terraform's check fails with the read's
// error instead). The data source's value is unknown.
func (r *run) scopedFailed(rc *resourceConfig, inst *modInst, k instanceKey, token string, args resource.Object, err error) cty.Value {
	rng := rc.rng
	summary, detail := scopedFailure(inst.prefix+rc.addr()+k.suffix(), rc.check.name, err)
	r.report(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: &rng}})
	r.mu.Lock()
	r.failedChecks[checkKey(inst, rc.check)] = true
	r.mu.Unlock()
	r.scopedRead(rc, inst, k, token, r.withComputed(rc, args))
	return cty.DynamicVal
}

// providerDiagnostic is an error carrying one diagnostic of the
// provider's own (provider.DiagnosticError, which this package may not
// import): Summary is "" when it carries several.
type providerDiagnostic interface {
	Summary() string
	Detail() string
}

// scopedFailure is the warning's summary and detail for the failed read
// of the data source addr nested in check: the provider's own summary
// and detail, as terraform shows them, when it reported one diagnostic.
func scopedFailure(addr, check string, err error) (summary, detail string) {
	const consequence = "As the data source is nested in a check block, this is a warning: the check's assertions were not evaluated, and nothing else is stopped. Fix the data source's arguments, or what it reads."
	var pd providerDiagnostic
	if errors.As(err, &pd) && pd.Summary() != "" {
		return pd.Summary(), fmt.Sprintf("%s\n\nReading %s, nested in check %q, failed. %s", pd.Detail(), addr, check, consequence)
	}
	return "Failed to read data source", fmt.Sprintf("Reading %s, nested in check %q, failed: %s. %s", addr, check, err, consequence)
}

// checkKey names a check block in a module instance.
func checkKey(inst *modInst, c *check) string { return inst.prefix + "check." + c.name }

// secretAttrs marks what the data source's schema calls sensitive in a
// read result secret, for the display.
func (r *run) secretAttrs(rc *resourceConfig, res resource.Object) resource.Object {
	out := res.Copy()
	for name, p := range r.resultSchemas[rc] {
		if v, ok := out[name]; ok && p.Secret && !v.IsNull() {
			out[name] = resource.MakeSecret(v)
		}
	}
	return out
}

// check evaluates a check block's assertions, unless one of its scoped
// data sources failed to read; failures are warnings, and so are
// assertions a plan cannot evaluate yet, as terraform's are. A run that
// configures the providers for a destroy evaluates none, as terraform's
// destroy does not.
func (r *run) check(n *node, inst *modInst) {
	r.mu.Lock()
	failed := r.failedChecks[checkKey(inst, n.check)]
	r.mu.Unlock()
	if failed || r.opts.Destroy {
		return
	}
	ctx := r.evalCtx(inst)
	var known []*condition
	for _, a := range n.check.asserts {
		v, ds := a.cond.Value(ctx)
		if v, _ = v.UnmarkDeep(); !ds.HasErrors() && !v.IsKnown() {
			rng := a.cond.Range()
			r.report(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Check block assertion known after apply", Subject: &rng,
				Detail: "The condition could not be evaluated at this time, a result will be known when this plan is applied."}})
			continue
		}
		known = append(known, a)
	}
	r.conditions(ctx, known, "Check block assertion failed", hcl.DiagWarning)
}
