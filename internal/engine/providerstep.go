package engine

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// providerStep handles a provider resource: CheckConfig, DiffConfig, then
// Configure, recording the provider as created, updated, replaced or the
// same. Providers change nothing in the world, so no provider call is
// bracketed by the journal; the change is written once it is known.
func (d *deployment) providerStep(urn resource.URN, reg *Registration) (Registered, error) {
	pkg := strings.TrimPrefix(reg.Type, state.ProviderTypePrefix)
	old := d.current(urn)
	p, err := d.prov.open(d.callCtx, ProviderRequest{Package: pkg, Version: reg.Version, Source: reg.PluginSource})
	if err != nil {
		return Registered{}, fmt.Errorf("provider %s: %w", urn, err)
	}
	checked, err := d.checkConfig(p, urn, old, reg.Inputs)
	if err != nil {
		return Registered{}, err
	}
	op, dd, err := d.diffConfig(p, urn, old, checked)
	if err != nil {
		return Registered{}, err
	}
	if _, err := configure(d.callCtx, p, checked, d.preview); err != nil {
		return Registered{}, fmt.Errorf("configuring provider %s: %w", urn, err)
	}
	nr := d.newResource(urn, reg, withReserved(checked, reg.Version, reg.PluginSource), "")
	nr.Outputs = checked
	if err := d.recordProvider(op, old, nr, dd); err != nil {
		return Registered{}, err
	}
	ref := state.ProviderRef(urn, nr.ID)
	d.prov.add(&instance{ref: ref, pkg: pkg, p: p, config: checked})
	return Registered{URN: urn, ID: idValue(nr.ID), Outputs: checked, Custom: true, ProviderRef: ref}, nil
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
	return resp.Inputs, nil
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
func (d *deployment) recordProvider(op StepOp, old, nr *state.Resource, dd resource.DetailedDiff) error {
	switch op {
	case OpCreate, OpReplace:
		nr.ID = newProviderID()
		if d.preview {
			nr.ID = UnknownID
		}
	default:
		nr.ID, nr.Created = old.ID, old.Created
	}
	var err error
	switch op {
	case OpCreate:
		err = d.write(state.OpCreate, nil, nr)
	case OpReplace:
		d.prov.markReplaced(nr.URN)
		err = d.write(state.OpReplace, old, nr)
	case OpUpdate:
		err = d.write(state.OpUpdate, old, nr)
	default:
		if !sameRecord(old, nr) {
			err = d.write(state.OpSame, old, nr)
		}
	}
	if err != nil {
		return err
	}
	if !isDefaultProvider(nr) {
		d.count(op) // default providers are plumbing, not the user's resources
	}
	d.emit(Event{Kind: EventStepDone, Op: op, URN: nr.URN, Type: nr.Type, Old: old, New: nr, Diff: dd})
	return nil
}

// registerDefaultProvider registers the default provider resource for a
// package and version, and returns its reference.
func (d *deployment) registerDefaultProvider(pkg, version, source string) (string, error) {
	var config resource.Object
	if d.opts.DefaultProviderConfig != nil {
		config = d.opts.DefaultProviderConfig(pkg)
	}
	reg := &Registration{
		Type: state.ProviderTypePrefix + pkg, Name: defaultProviderName(version), Custom: true,
		Inputs: config, Version: version, PluginSource: source,
	}
	urn := d.urn(reg.Type, reg.Name, "")
	if err := d.admitURN(urn, reg); err != nil {
		return "", err
	}
	res, err := d.providerStep(urn, reg)
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
