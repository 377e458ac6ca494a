package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// monitor is the Monitor a program talks to.
type monitor struct{ d *deployment }

var _ Monitor = monitor{}

// Register implements Monitor: it admits the registration at once and runs
// its step on the worker pool.
func (m monitor) Register(reg Registration, done func(Registered, error)) {
	d := m.d
	if d.remoteComponent(&reg) {
		d.construct(reg, done)
		return
	}
	urn, rs, err := d.admit(&reg)
	if err != nil {
		err = stepError(d.urn(reg.Type, reg.Name, reg.Parent), err)
		d.fail(err)
		done(Registered{}, err)
		return
	}
	d.work.Add(1)
	d.afterReferences(rs, func() {
		d.pool.submit(func(sl *slot) {
			defer d.work.Done()
			res, err := d.runStep(sl, urn, &reg)
			err = stepError(urn, err)
			d.fail(err)
			d.finished(rs)
			done(res, err)
		})
	})
}

// URN implements Monitor.
func (m monitor) URN(typ, name string, parent resource.URN) resource.URN {
	return m.d.urn(typ, name, parent)
}

// Recorded implements Monitor.
func (m monitor) Recorded(urn resource.URN) bool {
	return m.d.recs.current(urn) != nil
}

// RegisterOutputs implements Monitor.
func (m monitor) RegisterOutputs(urn resource.URN, outputs resource.Object) error {
	return m.d.componentOutputs(urn, outputs)
}

// SetStackOutputs implements Monitor.
func (m monitor) SetStackOutputs(outputs resource.Object) {
	m.d.mu.Lock()
	defer m.d.mu.Unlock()
	m.d.outputs, m.d.outputsSet = outputs, true
}

// SetStackOutputTypes implements OutputTyper.
func (m monitor) SetStackOutputTypes(types map[string]json.RawMessage) {
	m.d.mu.Lock()
	defer m.d.mu.Unlock()
	m.d.outputTypes = types
}

var _ OutputTyper = monitor{}

// Schema implements Monitor.
func (m monitor) Schema(ctx context.Context, pkg, version string) (*schema.Schema, error) {
	return m.d.prov.schema(ctx, pkg, version)
}

// Invoke implements Monitor.
func (m monitor) Invoke(ctx context.Context, req InvokeRequest) (resource.Object, error) {
	d := m.d
	inst, err := d.prov.forRegistration(&Registration{Type: req.Token, Provider: req.Provider, Version: req.Version})
	if err != nil {
		return nil, fmt.Errorf("invoking %s: %w", req.Token, err)
	}
	if req.Method {
		return d.call(ctx, inst, req)
	}
	var resp provider.InvokeResponse
	err = guard(func() (err error) {
		resp, err = inst.p.Invoke(ctx, provider.InvokeRequest{Token: req.Token, Args: req.Args})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("invoking %s: %w", req.Token, err)
	}
	if len(resp.Failures) > 0 {
		return nil, &InvokeError{Token: req.Token, Failures: resp.Failures}
	}
	return resp.Return, nil
}

// InvokeError reports arguments a provider function rejected.
type InvokeError struct {
	Token    string
	Failures []provider.CheckFailure
}

func (e *InvokeError) Error() string {
	msg := fmt.Sprintf("invoking %s: invalid arguments:", e.Token)
	for _, f := range e.Failures {
		msg += "\n    " + f.String()
	}
	return msg
}

// urn computes the URN of a registration.
func (d *deployment) urn(typ, name string, parent resource.URN) resource.URN {
	parentType := ""
	if parent != "" {
		parentType = parent.QualifiedType()
	}
	return resource.NewURN(d.opts.Stack, d.opts.Project, parentType, typ, name)
}

// regState tracks one registration: whether its step has finished, and
// the registrations waiting for that.
type regState struct {
	// parent is the registration's parent. The registration itself is
	// not kept: its inputs are the state's business once its step has
	// run, and holding every registration for the whole operation cost
	// about 1 KB a resource.
	parent resource.URN
	done   bool
	// aliases are the URNs the resource may be recorded under
	// (allAliases), which its children inherit.
	aliases []resource.URN
	waiters []func()
	refs    []*regState // unfinished registrations this one waits for
}

// admit validates a registration, reserves its URN and finds the
// registrations it refers to.
func (d *deployment) admit(reg *Registration) (resource.URN, *regState, error) {
	if reg.Name == "" {
		return "", nil, fmt.Errorf("a resource of type %s has no name", reg.Type)
	}
	urn := d.urn(reg.Type, reg.Name, reg.Parent)
	if err := checkIdentity(urn, reg); err != nil {
		return "", nil, err
	}
	refs, err := references(reg)
	if err != nil {
		return "", nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	rs := &regState{parent: reg.Parent}
	for _, r := range refs {
		dep := d.registered[r]
		if dep == nil {
			return "", nil, fmt.Errorf("resource %s refers to %s, which the program has not registered", urn, r)
		}
		if !dep.done {
			rs.refs = append(rs.refs, dep)
		}
	}
	if _, dup := d.registered[urn]; dup {
		return "", nil, fmt.Errorf("resource %s is registered twice; give each resource a unique name", urn)
	}
	if by := d.aliased[urn]; by != "" {
		return "", nil, fmt.Errorf("resource %s is registered, but %s took over its state through an alias; remove the alias or this resource", urn, by)
	}
	var parentAliases []resource.URN
	if p := d.registered[reg.Parent]; p != nil {
		parentAliases = p.aliases
	}
	rs.aliases = d.allAliases(reg, parentAliases)
	d.registered[urn] = rs
	return urn, rs, nil
}

// admitURN reserves the URN of a registration the engine makes itself
// (a default provider), under the rules a program's registration follows.
func (d *deployment) admitURN(urn resource.URN, reg *Registration) error {
	if err := checkIdentity(urn, reg); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.registered[urn]; dup {
		return fmt.Errorf("resource %s is registered twice; give each resource a unique name", urn)
	}
	d.registered[urn] = &regState{parent: reg.Parent, done: true}
	return nil
}

// checkIdentity refuses a registration whose URN or type the state loader
// would refuse (state.CheckIdentity), so that nothing is created that
// could not be recorded. A remote component is held to a custom
// resource's rules: its package chooses the provider that constructs it.
func checkIdentity(urn resource.URN, reg *Registration) error {
	if err := state.CheckIdentity(urn, reg.Type, reg.Custom || reg.Remote); err != nil {
		return &InvalidTypeError{Name: reg.Name, Type: reg.Type, Err: err}
	}
	return nil
}

// InvalidTypeError is a registration refused because its type token (or
// the URN it makes) could not be recorded and loaded again.
type InvalidTypeError struct {
	Name, Type string
	Err        error
}

func (e *InvalidTypeError) Error() string {
	return fmt.Sprintf("resource %q of type %q cannot be registered: %v", e.Name, e.Type, e.Err)
}

// Unwrap returns the cause (a *resource.URNError or *resource.TypeError).
func (e *InvalidTypeError) Unwrap() error { return e.Err }

// Diagnostic implements the display's interface.
func (e *InvalidTypeError) Diagnostic() (summary, where, path, detail string) {
	return "Invalid resource type", "", "", fmt.Sprintf("The program registers resource %q with type %q, which plinth cannot record: %v. "+
		"Nothing was created for it. Give it a type such as package:module:Type (a component may have any type without \"::\", \"$\" or control characters).",
		e.Name, e.Type, e.Err)
}

// references lists the URNs a registration refers to: parent, provider and
// dependencies.
func references(reg *Registration) ([]resource.URN, error) {
	var refs []resource.URN
	if reg.Parent != "" {
		refs = append(refs, reg.Parent)
	}
	refs = append(refs, reg.Dependencies...)
	for _, deps := range reg.PropertyDependencies {
		refs = append(refs, deps...)
	}
	if reg.Provider != "" {
		pu, _, err := state.ParseProviderRef(reg.Provider)
		if err != nil {
			return nil, fmt.Errorf("resource %q: %w", reg.Name, err)
		}
		refs = append(refs, pu)
	}
	return refs, nil
}

// afterReferences runs start once every registration rs refers to has
// finished, so a step never starts before what it depends on is recorded.
func (d *deployment) afterReferences(rs *regState, start func()) {
	d.mu.Lock()
	pending := 0
	fire := func() {
		d.mu.Lock()
		pending--
		ready := pending == 0
		d.mu.Unlock()
		if ready {
			start()
		}
	}
	for _, dep := range rs.refs {
		if !dep.done {
			pending++
			dep.waiters = append(dep.waiters, fire)
		}
	}
	rs.refs = nil
	d.mu.Unlock()
	if pending == 0 {
		start()
	}
}

// finished marks a registration's step done and releases its waiters.
func (d *deployment) finished(rs *regState) {
	d.mu.Lock()
	rs.done = true
	waiters := rs.waiters
	rs.waiters = nil
	d.mu.Unlock()
	for _, w := range waiters {
		w()
	}
}
