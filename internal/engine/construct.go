package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// servedMonitor is the resource monitor an operation starts, once, for
// component providers to register children through.
type servedMonitor struct {
	once   sync.Once
	addr   string
	stopFn func()
	err    error
}

func (s *servedMonitor) stop() {
	if s.stopFn != nil {
		s.stopFn()
	}
}

// monitorAddress starts the resource monitor on first use.
func (d *deployment) monitorAddress() (string, error) {
	s := &d.served
	s.once.Do(func() {
		if d.opts.ServeMonitor == nil {
			s.err = fmt.Errorf("this front end cannot serve the resource monitor a component provider needs; define the component in the program instead")
			return
		}
		s.addr, s.stopFn, s.err = d.opts.ServeMonitor(monitor{d})
	})
	return s.addr, s.err
}

// remoteComponent reports whether reg is a component its provider builds:
// a Pulumi program says so (Remote); for a YAML program the provider's
// schema marks the type a component. Only a schema already fetched (the
// YAML front end checks every resource against its schema) is consulted,
// so no provider is started for the question.
func (d *deployment) remoteComponent(reg *Registration) bool {
	if reg.Remote {
		return true
	}
	if !reg.Custom || strings.HasPrefix(reg.Type, state.ProviderTypePrefix) {
		return false
	}
	s := d.prov.cachedSchema(packageOf(reg.Type), reg.Version)
	return s != nil && s.Resources[reg.Type].IsComponent
}

// construct has the component's provider build it. The provider registers
// the component and its children through the monitor; their steps are the
// ordinary ones, so they appear under the component in previews and state,
// and are deleted like any resource no longer registered. It runs on its
// own goroutine, not the pool's: the children's steps need the pool.
func (d *deployment) construct(reg Registration, done func(Registered, error)) {
	urn := d.urn(reg.Type, reg.Name, reg.Parent)
	d.work.Add(1)
	go func() {
		defer d.work.Done()
		var res Registered
		err := guard(func() (err error) { res, err = d.constructNow(&reg); return err })
		err = stepError(urn, err)
		if !d.descendantFailed(urn) { // else the provider relays that failure: reported once
			d.fail(err)
		}
		done(res, err)
	}()
}

// descendantFailed reports whether a step of a resource under the
// component urn (a child, or a child's child) has failed in this
// operation. A component provider whose child fails fails its Construct
// with that child's error, which is reported already under the child's
// URN.
func (d *deployment) descendantFailed(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, err := range d.errs {
		var se *StepError
		if !errors.As(err, &se) {
			continue
		}
		for u, seen := se.URN, 0; u != "" && seen < len(d.registered); seen++ {
			rs := d.registered[u]
			if rs == nil {
				break
			}
			if u = rs.parent; u == urn {
				return true
			}
		}
	}
	return false
}

func (d *deployment) constructNow(reg *Registration) (Registered, error) {
	// The provider registers the component back under this URN and type:
	// refuse them now rather than after its Construct has made children.
	if err := checkIdentity(d.urn(reg.Type, reg.Name, reg.Parent), reg); err != nil {
		return Registered{}, err
	}
	inst, err := d.prov.forRegistration(reg)
	if err != nil {
		return Registered{}, err
	}
	addr, err := d.monitorAddress()
	if err != nil {
		return Registered{}, err
	}
	resp, err := inst.p.Construct(d.callCtx, provider.ConstructRequest{
		Info: d.runInfo(addr),
		Type: reg.Type, Name: reg.Name, Parent: reg.Parent,
		Inputs: reg.Inputs, InputDependencies: reg.PropertyDependencies,
		Options: d.componentOptions(reg, inst),
	})
	if err != nil {
		return Registered{}, fmt.Errorf("provider %s could not construct the component: %w", inst.pkg, err)
	}
	return Registered{URN: resp.URN, Outputs: resp.Outputs}, nil
}

// componentOptions are the options the provider passes on to the
// component and its children; the children of the component's package use
// the component's provider. Aliases go as the URNs they name, those given
// by parts (a new name, type or parent) too: the provider registers the
// component under them, and the engine derives its children's from them
// (allAliases), as for a component of the program.
func (d *deployment) componentOptions(reg *Registration, inst *instance) provider.ComponentOptions {
	o := provider.ComponentOptions{
		DependsOn: reg.Dependencies, Protect: reg.Protect,
		Providers:           map[string]string{inst.pkg: inst.ref},
		DeleteBeforeReplace: reg.DeleteBeforeReplace, RetainOnDelete: reg.RetainOnDelete,
		IgnoreChanges: reg.IgnoreChanges, ReplaceOnChanges: reg.ReplaceOnChanges,
		CustomTimeouts: provider.CustomTimeouts{Create: reg.CustomTimeouts.Create, Update: reg.CustomTimeouts.Update, Delete: reg.CustomTimeouts.Delete},
	}
	for _, a := range reg.Aliases {
		o.Aliases = append(o.Aliases, d.aliasURN(reg, a)) // a provider takes URNs only
	}
	return o
}

// runInfo is what a component provider is told about the operation.
func (d *deployment) runInfo(addr string) provider.RunInfo {
	return provider.RunInfo{MonitorAddress: addr, Project: d.opts.Project, Stack: d.opts.Stack,
		DryRun: d.x.preview, Parallel: d.opts.parallel()}
}

// call calls a component's method (req.Token is TYPE/method) through its
// provider's Call, with the resource monitor for what the method
// registers.
func (d *deployment) call(ctx context.Context, inst *instance, req InvokeRequest) (resource.Object, error) {
	addr, err := d.monitorAddress()
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", req.Token, err)
	}
	var resp provider.CallResponse
	err = guard(func() (err error) {
		resp, err = inst.p.Call(ctx, provider.CallRequest{Info: d.runInfo(addr), Token: req.Token,
			Args: req.Args, ArgDependencies: req.ArgDependencies})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", req.Token, err)
	}
	if len(resp.Failures) > 0 {
		return nil, &InvokeError{Token: req.Token, Failures: resp.Failures}
	}
	return resp.Return, nil
}
