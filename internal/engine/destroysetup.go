package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// setupMonitor is the Monitor a destroy's Options.DestroySetup program
// talks to. The providers it registers are configured for the deletes
// with the configuration the program gives them, ephemeral inputs
// included (the state never records those); the ephemeral resources it
// opens are open until the destroy ends. Every other resource it
// registers is answered from the state and left as it is: nothing it
// does is recorded.
type setupMonitor struct{ monitor }

var (
	_ Monitor         = setupMonitor{}
	_ EphemeralOpener = setupMonitor{}
)

// runDestroySetup runs opts.DestroySetup, if any, before a destroy's
// deletes. A destroy that deletes nothing but providers needs no
// provider configured, and runs no setup: terraform's destroy of an
// empty state evaluates nothing (it reads no data source, opens no
// ephemeral resource, and an output that could not be evaluated does not
// stop it), so a stack whose first up failed can still be destroyed.
func (d *deployment) runDestroySetup(doomed []*state.Resource) error {
	if d.opts.DestroySetup == nil || !slices.ContainsFunc(doomed, func(r *state.Resource) bool { return !isProvider(r.Type) }) {
		return nil
	}
	if err := d.opts.DestroySetup.Run(d.ctx, setupMonitor{monitor{d}}); err != nil {
		return fmt.Errorf("configuring the providers for the destroy: %w", err)
	}
	return nil
}

// Register implements Monitor: a provider is configured, anything else is
// answered with its recorded value (a resource the state does not hold,
// with its inputs and an unknown ID, as a preview has it).
func (m setupMonitor) Register(reg Registration, done func(Registered, error)) {
	urn := m.d.urn(reg.Type, reg.Name, reg.Parent)
	rec := m.d.recs.current(urn)
	if !isProvider(reg.Type) {
		res := Registered{URN: urn, ID: resource.Unknown(), Outputs: reg.Inputs, Custom: reg.Custom}
		if rec != nil {
			res.ID, res.Outputs = idValue(rec.ID), rec.Outputs
		}
		go done(res, nil)
		return
	}
	go func() {
		res, err := m.configure(urn, rec, &reg)
		done(res, err)
	}()
}

// configure configures a provider the program registers and makes it
// the instance its recorded reference names, so the deletes use it.
func (m setupMonitor) configure(urn resource.URN, rec *state.Resource, reg *Registration) (Registered, error) {
	d := m.d
	id := UnknownID
	if rec != nil {
		id = rec.ID
	}
	ref := state.ProviderRef(urn, id)
	pkg := strings.TrimPrefix(reg.Type, state.ProviderTypePrefix)
	p, err := d.prov.open(d.callCtx, ProviderRequest{Package: pkg, Version: reg.Version, Source: reg.PluginSource, DownloadURL: reg.PluginDownloadURL})
	if err != nil {
		return Registered{}, fmt.Errorf("provider %s: %w", urn, err)
	}
	checked, err := d.checkConfig(p, urn, rec, reg.Inputs)
	if err != nil {
		return Registered{}, err
	}
	if err := d.prov.configure(d.callCtx, p, checked); err != nil {
		return Registered{}, fmt.Errorf("configuring provider %s: %w", urn, err)
	}
	inst := &instance{ref: ref, pkg: pkg, p: p, config: checked}
	inst.once.Do(func() {}) // configured here: never loaded from the state
	d.prov.add(inst)
	return Registered{URN: urn, ID: idValue(id), Outputs: withoutKeys(checked, reg.EphemeralInputs), Custom: true, ProviderRef: ref}, nil
}

// Invoke implements Monitor, with the default provider loaded from the
// state rather than registered.
func (m setupMonitor) Invoke(ctx context.Context, req InvokeRequest) (resource.Object, error) {
	if err := m.provider(&req); err != nil {
		return nil, err
	}
	return m.monitor.Invoke(ctx, req)
}

// OpenEphemeral implements EphemeralOpener, with the default provider
// loaded from the state rather than registered.
func (m setupMonitor) OpenEphemeral(ctx context.Context, req InvokeRequest) (resource.Object, func(context.Context) error, error) {
	if err := m.provider(&req); err != nil {
		return nil, nil, err
	}
	return m.monitor.OpenEphemeral(ctx, req)
}

// provider makes sure the provider a request names is an instance: an
// explicit one the program registered, or the package's default
// provider, loaded from the state if it records one and configured from
// the stack config otherwise.
func (m setupMonitor) provider(req *InvokeRequest) error {
	d := m.d
	if req.Provider != "" {
		return nil
	}
	pkg := packageOf(req.Token)
	urn := d.urn(state.ProviderTypePrefix+pkg, d.opts.defaultProviderName(req.Version), "")
	if rec := d.recs.current(urn); rec != nil {
		req.Provider = state.ProviderRef(urn, rec.ID)
		_, err := d.prov.forRef(req.Provider)
		return err
	}
	var config resource.Object
	if d.opts.DefaultProviderConfig != nil {
		config = d.opts.DefaultProviderConfig(pkg)
	}
	res, err := m.configure(urn, nil, &Registration{Type: state.ProviderTypePrefix + pkg, Inputs: config, Version: req.Version})
	req.Provider = res.ProviderRef
	return err
}

// RegisterOutputs implements Monitor: nothing is recorded.
func (setupMonitor) RegisterOutputs(resource.URN, resource.Object) error { return nil }

// SetStackOutputs implements Monitor: the destroy sets the outputs.
func (setupMonitor) SetStackOutputs(resource.Object) {}
