package engine

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// providerStep generates the step of a provider resource: CheckConfig and
// DiffConfig decide whether it is created, updated, replaced or the same.
func (d *deployment) providerStep(urn resource.URN, reg *Registration) (step, error) {
	s := providerStep{urn: urn, reg: reg, pkg: strings.TrimPrefix(reg.Type, state.ProviderTypePrefix), old: d.recs.current(urn)}
	var err error
	s.p, err = d.prov.open(d.callCtx, ProviderRequest{Package: s.pkg, Version: reg.Version, Source: reg.PluginSource, DownloadURL: reg.PluginDownloadURL})
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", urn, err)
	}
	if s.checked, err = d.checkConfig(s.p, urn, s.old, reg.Inputs); err != nil {
		return nil, err
	}
	if s.op, s.diff, err = d.diffConfig(s.p, urn, s.old, withoutKeys(s.checked, reg.EphemeralInputs)); err != nil {
		return nil, err
	}
	return s, nil
}

// providerStep configures a provider and records its resource. Providers
// change nothing in the world, so no provider call is bracketed by the
// journal; the change is written once it is known.
type providerStep struct {
	urn     resource.URN
	reg     *Registration
	pkg     string
	old     *state.Resource
	p       provider.Provider
	checked resource.Object
	op      StepOp
	diff    resource.DetailedDiff
}

func (s providerStep) apply(x *executor) (Registered, error) {
	if err := x.fx.configure(x.ctx, s.p, s.checked); err != nil {
		return Registered{}, fmt.Errorf("configuring provider %s: %w", s.urn, err)
	}
	recorded := withoutKeys(s.checked, s.reg.EphemeralInputs)
	nr := x.newResource(s.urn, s.reg, withReserved(recorded, s.reg.Version, s.reg.PluginSource), "")
	nr.Outputs = recorded
	if err := x.recordProvider(s.op, s.old, nr, s.diff); err != nil {
		return Registered{}, err
	}
	ref := state.ProviderRef(s.urn, nr.ID)
	x.prov.add(&instance{ref: ref, pkg: s.pkg, p: s.p, config: s.checked})
	return Registered{URN: s.urn, ID: idValue(nr.ID), Outputs: recorded, Custom: true, ProviderRef: ref}, nil
}

// withoutKeys is o without the named keys (o itself when there are none).
func withoutKeys(o resource.Object, keys []string) resource.Object {
	if len(keys) == 0 {
		return o
	}
	out := o.Copy()
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func (d *deployment) checkConfig(p provider.Provider, urn resource.URN, old *state.Resource, news resource.Object) (resource.Object, error) {
	var olds resource.Object
	if old != nil {
		olds = stripReserved(old.Inputs)
	}
	var resp provider.CheckResponse
	err := guard(func() (err error) {
		resp, err = p.CheckConfig(d.callCtx, provider.CheckRequest{URN: urn, Olds: olds, News: news})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checking the configuration of provider %s: %w", urn, err)
	}
	if len(resp.Failures) > 0 {
		return nil, &CheckError{URN: urn, Failures: resp.Failures, Config: true}
	}
	if resp.Inputs == nil {
		return resource.Object{}, nil
	}
	// A provider may give back in the clear what it was given sealed.
	return sealDerived(resp.Inputs, news), nil
}

// diffConfig decides what becomes of a provider resource. Changing the
// plugin version alone updates it; DiffConfig decides replacement.
func (d *deployment) diffConfig(p provider.Provider, urn resource.URN, old *state.Resource, checked resource.Object) (StepOp, resource.DetailedDiff, error) {
	if old == nil {
		return OpCreate, nil, nil
	}
	olds := stripReserved(old.Inputs)
	var resp provider.DiffResponse
	err := guard(func() (err error) {
		resp, err = p.DiffConfig(d.callCtx, provider.DiffRequest{URN: urn, ID: old.ID, OldInputs: olds, OldOutputs: stripReserved(old.Outputs), News: checked})
		return err
	})
	if err != nil {
		return "", nil, fmt.Errorf("diffing the configuration of provider %s: %w", urn, err)
	}
	dd := resp.DetailedDiff
	if resp.Changes == provider.DiffUnknown || (resp.Changes == provider.DiffSome && len(dd) == 0) {
		dd = resource.DiffObjects(olds, checked, nil)
		markReplaceKeys(dd, resp.ReplaceKeys)
	}
	switch {
	case resp.Replaces():
		return OpReplace, dd, nil
	case resp.Changes == provider.DiffSome || len(dd) > 0:
		return OpUpdate, dd, nil
	}
	return OpSame, nil, nil
}

// recordProvider records a provider resource's step and gives nr its ID.
func (x *executor) recordProvider(op StepOp, old, nr *state.Resource, dd resource.DetailedDiff) error {
	switch op {
	case OpCreate, OpReplace:
		nr.ID = x.fx.providerID()
	default:
		nr.ID, nr.Created = old.ID, old.Created
	}
	var err error
	switch op {
	case OpCreate:
		err = x.write(state.OpCreate, nil, nr)
	case OpReplace:
		err = x.write(state.OpReplace, old, nr)
	case OpUpdate:
		err = x.write(state.OpUpdate, old, nr)
	default:
		if !sameRecord(old, nr) {
			err = x.write(state.OpSame, old, nr)
		}
	}
	if err != nil {
		return err
	}
	if !isDefaultProvider(nr) {
		x.count(op) // default providers are plumbing, not the user's resources
	}
	x.emit(Event{Kind: EventStepDone, Op: op, URN: nr.URN, Type: nr.Type, Old: old, New: nr, Diff: dd})
	return nil
}

// registerDefaultProvider registers the default provider resource for a
// package and version, and returns its reference.
func (d *deployment) registerDefaultProvider(pkg, version, source, downloadURL string) (string, error) {
	var config resource.Object
	if d.opts.DefaultProviderConfig != nil {
		config = d.opts.DefaultProviderConfig(pkg)
	}
	reg := &Registration{
		Type: state.ProviderTypePrefix + pkg, Name: d.opts.defaultProviderName(version), Custom: true,
		Inputs: config, Version: version, PluginSource: source, PluginDownloadURL: downloadURL,
	}
	urn := d.urn(reg.Type, reg.Name, "")
	if err := d.admitURN(urn, reg); err != nil {
		return "", err
	}
	s, err := d.providerStep(urn, reg)
	if err != nil {
		return "", err
	}
	res, err := d.x.run(s)
	if err != nil {
		return "", err
	}
	return res.ProviderRef, nil
}

// CheckError reports inputs (or provider configuration) that a provider
// rejected, property by property.
type CheckError struct {
	URN      resource.URN
	Failures []provider.CheckFailure
	Config   bool
}

func (e *CheckError) Error() string {
	what := "inputs"
	if e.Config {
		what = "configuration"
	}
	msg := fmt.Sprintf("%s has invalid %s:", e.URN, what)
	for _, f := range e.Failures {
		msg += "\n    " + f.String()
	}
	return msg
}

// isDefaultProvider reports whether r is a default provider resource, which
// the engine makes and counts as plumbing rather than as the user's.
func isDefaultProvider(r *state.Resource) bool {
	name := r.URN.Name()
	return isProvider(r.Type) && (name == "default" || strings.HasPrefix(name, "default_"))
}
