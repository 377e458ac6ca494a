package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provisioners run after a resource is created and, for `when: destroy`,
// before it is deleted, with Terraform's semantics: a failure of a
// provisioner with OnFailure "fail" (the default) taints a new resource
// (recorded, so the next update replaces it) and fails its step, or fails
// the delete (nothing is deleted); with "continue" it is a warning. Their
// output reaches the display as EventProvisionerOutput, line by line. A
// preview runs none.

// Provisioner is one provisioner of a registration.
type Provisioner struct {
	// Type is "local-exec", "file" or a plugin's name.
	Type       string
	Config     resource.Object
	Connection resource.Object
	// When is "" or "create" (after the resource is created) or
	// "destroy" (before it is deleted).
	When string
	// OnFailure is "" or "fail" (taint and fail) or "continue" (warn).
	OnFailure string
	// Timeout bounds the provisioner; zero means the resource's create
	// (or delete) timeout, else the operation's default.
	Timeout time.Duration
	// Resolve, when set, computes Config and Connection from the
	// resource's own values (Terraform's self: its outputs and id) once
	// they are known: before a create-time provisioner runs, and, for a
	// destroy-time one, whenever the resource's record is written, so
	// that the state records the resolved values for the delete.
	Resolve func(self resource.Object) (config, connection resource.Object, err error)
}

// resolved is p with its Config and Connection computed from r's values.
func (p Provisioner) resolved(r *state.Resource) (Provisioner, error) {
	if p.Resolve == nil {
		return p, nil
	}
	self := r.Outputs.Copy()
	if self == nil {
		self = resource.Object{}
	}
	if _, ok := self["id"]; !ok {
		self["id"] = resource.NewString(r.ID)
	}
	cfg, conn, err := p.Resolve(self)
	if err != nil {
		return p, fmt.Errorf("provisioner %q of %s: %w", p.Type, r.URN, err)
	}
	p.Config, p.Connection = cfg, conn
	return p, nil
}

// recordDestroyProvisioners records r's destroy-time provisioners
// resolved against its values. One that cannot be resolved is left out,
// with a warning.
func (x *executor) recordDestroyProvisioners(reg *Registration, r *state.Resource) {
	var out []state.Provisioner
	for _, p := range reg.Provisioners {
		if p.When != "destroy" {
			continue
		}
		rp, err := p.resolved(r)
		if err == nil && (resource.NewObject(rp.Config).ContainsUnknowns() || resource.NewObject(rp.Connection).ContainsUnknowns()) {
			if x.preview {
				continue
			}
			err = fmt.Errorf("provisioner %q of %s: its configuration refers to values that are still unknown", p.Type, r.URN)
		}
		if err != nil {
			x.warn("%s; it will not run when the resource is deleted", err)
			continue
		}
		out = append(out, state.Provisioner{Type: rp.Type, Config: rp.Config, Connection: rp.Connection, Continue: rp.OnFailure == "continue", Timeout: rp.Timeout})
	}
	r.DestroyProvisioners = out
}

// ProvisionerSource makes provisioners by type; the engine closes each
// when it has run.
type ProvisionerSource interface {
	Provisioner(ctx context.Context, typ string) (provider.Provisioner, error)
}

// destroyProvisioners are a registration's destroy-time provisioners, as
// the state records them before the resource's values are known: those
// resolved from its values (Resolve) are recorded once they are (see
// recordDestroyProvisioners).
func destroyProvisioners(reg *Registration) []state.Provisioner {
	var out []state.Provisioner
	for _, p := range reg.Provisioners {
		if p.When == "destroy" && p.Resolve == nil {
			out = append(out, state.Provisioner{Type: p.Type, Config: p.Config, Connection: p.Connection, Continue: p.OnFailure == "continue", Timeout: p.Timeout})
		}
	}
	return out
}

// hasCreateProvisioners reports whether reg has a provisioner that runs
// after its resource is created.
func hasCreateProvisioners(reg *Registration) bool {
	for _, p := range reg.Provisioners {
		if p.When != "destroy" {
			return true
		}
	}
	return false
}

// provisionCreated runs a new resource's create-time provisioners. The
// resource was recorded tainted when it was created, so that a plinth
// killed while they run leaves it to be replaced (and provisioned) by the
// next update, as a failed provisioner would: a provisioner's work is
// never taken as done before it is. When every provisioner has run (or
// failed with OnFailure "continue") the taint is lifted; if one fails
// with OnFailure "fail", the resource stays tainted and the error is
// returned.
func (x *executor) provisionCreated(reg *Registration, nr *state.Resource) error {
	for _, p := range reg.Provisioners {
		if p.When == "destroy" {
			continue
		}
		err := x.provisionOne(reg, p, nr)
		if err == nil {
			continue
		}
		if p.OnFailure == "continue" {
			x.warn("%s; continuing, as the provisioner sets on_failure = continue", err)
			continue
		}
		return fmt.Errorf("%w; %s was created and is now tainted: the next update replaces it (set on_failure = continue to ignore provisioner failures)", err, nr.URN)
	}
	provisioned := nr.Clone()
	provisioned.Tainted = false
	if err := x.write(state.OpSame, nr, provisioned); err != nil {
		return err
	}
	*nr = *provisioned
	return nil
}

// provisionOne runs one create-time provisioner, resolved against the
// new resource's values.
func (x *executor) provisionOne(reg *Registration, p Provisioner, nr *state.Resource) error {
	p, err := p.resolved(nr)
	if err != nil {
		return err
	}
	t := firstNonZero(p.Timeout, reg.CustomTimeouts.Create)
	return x.provision(nr, state.Provisioner{Type: p.Type, Config: p.Config, Connection: p.Connection, Continue: p.OnFailure == "continue"}, t)
}

// provisionDestroyed runs a resource's destroy-time provisioners before it
// is deleted. Terraform skips them for a tainted resource, and so does
// plinth.
func (x *executor) provisionDestroyed(r *state.Resource) error {
	if r.Tainted {
		return nil
	}
	for _, p := range r.DestroyProvisioners {
		err := x.provision(r, p, firstNonZero(p.Timeout, r.CustomTimeouts.Delete))
		switch {
		case err != nil && p.Continue:
			x.warn("%s; continuing, as the provisioner sets on_failure = continue", err)
		case err != nil:
			return fmt.Errorf("%w; %s was not deleted (the provisioner runs again on the next attempt)", err, r.URN)
		}
	}
	return nil
}

// provision runs one provisioner against r under the operation's context
// (so Ctrl-C stops it) and the timeout.
func (x *executor) provision(r *state.Resource, p state.Provisioner, timeout time.Duration) error {
	what := fmt.Sprintf("provisioner %q of %s", p.Type, r.URN)
	if x.opts.Provisioners == nil {
		return fmt.Errorf("%s: this operation has no provisioners available", what)
	}
	if resource.NewObject(p.Config).ContainsUnknowns() || resource.NewObject(p.Connection).ContainsUnknowns() {
		return fmt.Errorf("%s: its configuration refers to values that are still unknown after the resource was created; refer only to known values (or, in the Terraform language, to self)", what)
	}
	ctx, cancel := x.provisionContext(timeout)
	defer cancel()
	prov, err := x.opts.Provisioners.Provisioner(ctx, p.Type)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer prov.Close()
	if err := validateProvisioner(ctx, prov, p.Config); err != nil {
		return fmt.Errorf("%s: invalid configuration: %w", what, err)
	}
	stop := context.AfterFunc(ctx, func() { prov.Stop(context.WithoutCancel(ctx)) })
	defer stop()
	out := func(line string) {
		x.emit(Event{Kind: EventProvisionerOutput, URN: r.URN, Type: r.Type, Message: line})
	}
	err = guard(func() error {
		return prov.Provision(ctx, provider.ProvisionRequest{Config: p.Config, Connection: p.Connection, Output: out})
	})
	return provisionError(what, ctx, timeout, err)
}

// provisionContext is the operation's context (cancelled by Ctrl-C) and
// the step's (cancelled by a hard cancel), bounded by the timeout.
func (x *executor) provisionContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx := x.ctx
	if x.opCtx != nil {
		ctx = mergeCancel(ctx, x.opCtx)
	}
	if t := x.timeoutFor(timeout); t > 0 {
		return context.WithTimeoutCause(ctx, t, fmt.Errorf("timed out after %s", t))
	}
	return context.WithCancel(ctx)
}

// provisionError explains why a provisioner ended: a timeout, an
// interruption, or its own error.
func provisionError(what string, ctx context.Context, timeout time.Duration, err error) error {
	switch {
	case ctx.Err() == nil && err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s %s and was stopped (raise the provisioner's timeout, or the resource's customTimeouts): %w", what, context.Cause(ctx), err)
	case ctx.Err() != nil:
		return fmt.Errorf("%s was interrupted (the operation was cancelled) and was stopped: %w", what, err)
	}
	return fmt.Errorf("%s failed: %w", what, err)
}

func validateProvisioner(ctx context.Context, p provider.Provisioner, cfg resource.Object) error {
	resp, err := p.ValidateConfig(ctx, provider.ValidateProvisionerRequest{Config: cfg})
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range resp.Failures {
		errs = append(errs, errors.New(f.String()))
	}
	return errors.Join(errs...)
}

func firstNonZero(ds ...time.Duration) time.Duration {
	for _, d := range ds {
		if d > 0 {
			return d
		}
	}
	return 0
}
