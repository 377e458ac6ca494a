package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// runStep runs the step for one registration, holding its URN so that no
// other step (a delete-before-replace of something it depends on) touches
// the same resource at once.
func (d *deployment) runStep(urn resource.URN, reg *Registration) (Registered, error) {
	if err := d.stopped(); err != nil {
		return Registered{}, fmt.Errorf("%s: %w", urn, err)
	}
	unlock := d.locks.lock(urn)
	defer unlock()
	if !isProvider(reg.Type) {
		if err := d.adoptAlias(urn, reg); err != nil {
			return Registered{}, err
		}
	}
	switch {
	case !reg.Custom:
		return d.componentStep(urn, reg)
	case isProvider(reg.Type):
		return d.providerStep(urn, reg)
	}
	return d.resourceStep(urn, reg)
}

// change is what a custom resource's step works out before acting.
type change struct {
	urn     resource.URN
	reg     *Registration
	inst    *instance
	old     *state.Resource
	inputs  resource.Object // checked
	op      StepOp
	diff    resource.DetailedDiff
	replace []string
	dbr     bool
	// gone is the record of a resource a refresh found deleted outside
	// plinth (Missing); the step creates it again in its place.
	gone *state.Resource
}

// resourceStep is the custom resource lifecycle: Check, Diff, then same,
// create, update or replace.
func (d *deployment) resourceStep(urn resource.URN, reg *Registration) (Registered, error) {
	inst, err := d.prov.forRegistration(reg)
	if err != nil {
		return Registered{}, fmt.Errorf("%s: %w", urn, err)
	}
	c := &change{urn: urn, reg: reg, inst: inst, old: d.current(urn)}
	if d.preview && d.dbrPending(urn) {
		c.old = nil // a preview does not delete; the real run will have
	}
	if c.old != nil && c.old.Missing {
		c.gone, c.old = c.old, nil
	}
	if !d.targets.has(urn) {
		return d.untargeted(c)
	}
	if reg.ImportID != "" && (c.old == nil || c.old.ID != reg.ImportID) {
		return d.importStep(c)
	}
	news, err := ignoreChanges(c.old, reg)
	if err != nil {
		return Registered{}, fmt.Errorf("%s: %w", urn, err)
	}
	if c.inputs, err = d.check(c, news, c.old != nil); err != nil {
		return Registered{}, err
	}
	if c.gone != nil {
		return d.create(c, recreate)
	}
	if c.old == nil {
		return d.create(c, plainCreate)
	}
	if err := d.decide(c); err != nil {
		return Registered{}, err
	}
	switch c.op {
	case OpReplace:
		return d.replace(c, news)
	case OpUpdate:
		return d.update(c)
	}
	return d.same(c)
}

// untargeted leaves a resource outside the operation's targets as it is.
func (d *deployment) untargeted(c *change) (Registered, error) {
	if c.old != nil {
		return registered(c.old), nil
	}
	if c.gone != nil {
		return registered(c.gone), nil
	}
	return Registered{URN: c.urn, ID: resource.NewString(""), Outputs: c.reg.Inputs, Custom: true}, nil
}

// check validates a registration's inputs with the provider. withOlds
// passes the last recorded inputs (not for a replacement, which starts
// afresh).
func (d *deployment) check(c *change, news resource.Object, withOlds bool) (resource.Object, error) {
	req := provider.CheckRequest{URN: c.urn, News: news}
	if withOlds && c.old != nil {
		req.Olds = c.old.Inputs
	}
	var resp provider.CheckResponse
	err := guard(func() (err error) {
		resp, err = c.inst.p.Check(d.callCtx, req)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", c.urn, err)
	}
	if len(resp.Failures) > 0 {
		return nil, &CheckError{URN: c.urn, Failures: resp.Failures}
	}
	if resp.Inputs == nil {
		return resource.Object{}, nil
	}
	return resp.Inputs, nil
}

// ignoreChanges replaces every ignored path in the registration's inputs
// with the value recorded in the old inputs, as the guide prescribes.
func ignoreChanges(old *state.Resource, reg *Registration) (resource.Object, error) {
	if old == nil || len(reg.IgnoreChanges) == 0 {
		return reg.Inputs, nil
	}
	news := resource.NewObject(reg.Inputs.Copy())
	olds := resource.NewObject(old.Inputs)
	for _, p := range reg.IgnoreChanges {
		path, err := resource.ParsePath(p)
		if err != nil {
			return nil, fmt.Errorf("ignoreChanges: %w", err)
		}
		if v, ok := path.Get(olds); ok {
			news, _ = path.Set(news, v)
		} else {
			news, _ = path.Delete(news)
		}
	}
	return news.Object(), nil
}

// newResource builds the state record of a registration.
func (d *deployment) newResource(urn resource.URN, reg *Registration, inputs resource.Object, ref string) *state.Resource {
	now := d.opts.now()
	return &state.Resource{
		URN: urn, Type: reg.Type, Custom: reg.Custom, Inputs: inputs, Parent: reg.Parent,
		Provider: ref, Dependencies: reg.Dependencies, PropertyDependencies: reg.PropertyDependencies,
		Protect: reg.Protect, RetainOnDelete: reg.RetainOnDelete, DeleteBeforeReplace: reg.DeleteBeforeReplace,
		IgnoreChanges: reg.IgnoreChanges, ReplaceOnChanges: reg.ReplaceOnChanges,
		CustomTimeouts: state.CustomTimeouts(reg.CustomTimeouts),
		Created:        now, Modified: now,
	}
}

// sameRecord reports whether two records of one resource agree in
// everything but their timestamps, so nothing need be written.
func sameRecord(a, b *state.Resource) bool {
	return a.Type == b.Type && a.Custom == b.Custom && a.ID == b.ID && a.Parent == b.Parent &&
		a.Provider == b.Provider && a.Protect == b.Protect && a.RetainOnDelete == b.RetainOnDelete &&
		a.DeleteBeforeReplace == b.DeleteBeforeReplace && a.CustomTimeouts == b.CustomTimeouts && a.SecretID == b.SecretID &&
		a.Inputs.Equal(b.Inputs) && a.Outputs.Equal(b.Outputs) &&
		slices.Equal(a.Dependencies, b.Dependencies) && slices.Equal(a.IgnoreChanges, b.IgnoreChanges) &&
		slices.Equal(a.ReplaceOnChanges, b.ReplaceOnChanges) && slices.Equal(a.InitErrors, b.InitErrors) &&
		slices.Equal(a.Private, b.Private) && samePropertyDependencies(a.PropertyDependencies, b.PropertyDependencies)
}

func samePropertyDependencies(a, b map[string][]resource.URN) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func registered(r *state.Resource) Registered {
	res := Registered{URN: r.URN, ID: idValue(r.ID), Outputs: r.Outputs, Custom: r.Custom}
	if r.SecretID {
		res.ID = resource.MakeSecret(res.ID)
	}
	if isProvider(r.Type) {
		res.ProviderRef = state.ProviderRef(r.URN, r.ID)
	}
	return res
}

func idValue(id string) resource.Value {
	if id == UnknownID {
		return resource.Unknown()
	}
	return resource.NewString(id)
}

func isProvider(typ string) bool { return state.IsProviderType(typ) }

// timeoutFor picks a step's timeout: the resource's own, else the
// operation's default.
func (d *deployment) timeoutFor(t time.Duration) time.Duration {
	if t > 0 {
		return t
	}
	return d.opts.DefaultTimeout
}
