package engine

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The step generator: it turns a registration into the step that brings
// the resource to what the program asks (this file for custom resources,
// with decide.go and replace.go; component.go, providerstep.go and
// alias.go for the rest), and, after the program, the resources it did not
// register into deletes (deletes.go). Generation may ask providers to
// Check and Diff, which change nothing; the executor runs the step.

// runStep generates and runs the step for one registration, holding its
// URN so that no other step (a delete-before-replace of something it
// depends on) touches the same resource at once.
func (d *deployment) runStep(sl *slot, urn resource.URN, reg *Registration) (Registered, error) {
	if err := d.stopped(); err != nil {
		return Registered{}, fmt.Errorf("%s: %w", urn, err)
	}
	unlock := d.locks.lock(urn)
	defer unlock()
	if !isProvider(reg.Type) {
		if err := d.adoptAlias(urn); err != nil {
			return Registered{}, err
		}
	}
	s, err := d.generate(urn, reg)
	if err != nil {
		return Registered{}, err
	}
	res, err := d.x.runIn(sl, s)
	res.Op, res.Changed = stepOutcome(s)
	return res, err
}

// generate chooses the step of a registration.
func (d *deployment) generate(urn resource.URN, reg *Registration) (step, error) {
	switch {
	case !reg.Custom:
		return d.componentStep(urn, reg), nil
	case isProvider(reg.Type):
		return d.providerStep(urn, reg)
	case reg.ReadID != "":
		return d.readStep(urn, reg)
	}
	return d.resourceStep(urn, reg)
}

// resourceStep is the custom resource lifecycle: Check, Diff, then same,
// create, update or replace.
func (d *deployment) resourceStep(urn resource.URN, reg *Registration) (step, error) {
	c, err := d.newChange(urn, reg)
	if err != nil {
		return nil, err
	}
	if !d.targets.has(urn) {
		return untargeted(c), nil
	}
	if reg.ImportID != "" && (c.old == nil || c.old.ID != reg.ImportID) {
		return importStep{c}, nil
	}
	news, err := ignoreChanges(c.old, reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", urn, err)
	}
	if c.inputs, err = d.check(c, news, c.old != nil); err != nil {
		return nil, err
	}
	switch {
	case c.gone != nil:
		return createStep{c, recreate}, nil
	case c.old == nil && d.takeDBRDeleted(urn):
		return createStep{c, replacementCreate}, nil
	case c.old == nil:
		return createStep{c, plainCreate}, nil
	}
	if err := d.decide(c); err != nil {
		return nil, err
	}
	switch c.op {
	case OpReplace:
		return d.replace(c, news)
	case OpUpdate:
		return updateStep{c}, nil
	}
	return sameStep{c}, nil
}

// newChange starts the change of a custom resource: its provider and its
// recorded state.
func (d *deployment) newChange(urn resource.URN, reg *Registration) (*change, error) {
	inst, err := d.prov.forRegistration(reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", urn, err)
	}
	c := &change{urn: urn, reg: reg, inst: inst, old: d.recs.current(urn)}
	if c.old != nil && d.deletedAsDependent(urn) == c.old {
		// Still recorded after its delete-before-replace delete: only a
		// preview, which records nothing, leaves it; the update will
		// have deleted it.
		c.old = nil
	}
	if c.old != nil && (c.old.Missing || c.old.External) {
		// A record to be created afresh: gone, or read until now and
		// never plinth's (see read.go).
		c.gone, c.old = c.old, nil
	}
	return c, nil
}

// untargeted leaves a resource outside the operation's targets as it is.
func untargeted(c *change) step {
	if c.old != nil {
		return keepStep{registered(c.old)}
	}
	if c.gone != nil {
		return keepStep{registered(c.gone)}
	}
	return keepStep{Registered{URN: c.urn, ID: resource.NewString(""), Outputs: c.reg.Inputs, Custom: true, Absent: true}}
}

// check is check's answer for c, unless the preview before this update
// already checked the same inputs from the same state (see Plans).
func (d *deployment) check(c *change, news resource.Object, withOlds bool) (resource.Object, error) {
	op := opCheckFresh
	if withOlds && c.old != nil {
		op = opCheck
	}
	if checked, ok := d.x.checkedOf(c, op, news); ok {
		return checked, nil
	}
	checked, err := check(d.callCtx, c, news, withOlds)
	if err == nil {
		d.x.keepCheck(c, op, news, checked)
	}
	return checked, err
}

// check validates a registration's inputs with the provider. withOlds
// passes the last recorded inputs (not for a replacement, which starts
// afresh). The checked inputs keep secret what the given ones held
// secret (sealDerived).
func check(ctx context.Context, c *change, news resource.Object, withOlds bool) (resource.Object, error) {
	req := provider.CheckRequest{URN: c.urn, News: news}
	if withOlds && c.old != nil {
		req.Olds = c.old.Inputs
	}
	var resp provider.CheckResponse
	err := guard(func() (err error) {
		resp, err = c.inst.p.Check(ctx, req)
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
	// A provider may give back in the clear what it was given sealed.
	return sealDerived(resp.Inputs, news), nil
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
