package engine

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Reads of resources plinth does not manage (Registration.ReadID: Pulumi's
// ReadResource, the `get` functions of its SDKs). The provider's Read
// finds the resource by ID; it is recorded as External with what Read
// returned, so that other resources can depend on it, and it is never
// created, updated or deleted: a destroy, or a program that no longer
// reads it, only drops the record (deletes.go), and a program that starts
// managing it under the same URN creates a resource of its own in the
// record's place (newChange). Reads run in a preview too, as Pulumi's do:
// they change nothing.

// ReadNotFoundError reports a read of a resource its provider cannot find.
type ReadNotFoundError struct {
	URN resource.URN
	ID  string
}

func (e *ReadNotFoundError) Error() string {
	return fmt.Sprintf("cannot read %s: its provider found no resource with ID %q; check the ID the program passes to get (the resource must exist before plinth reads it)", e.URN, e.ID)
}

// ManagedReadError refuses to read, as an external resource, a resource
// that plinth manages under the same URN.
type ManagedReadError struct {
	URN resource.URN
	ID  string
}

func (e *ManagedReadError) Error() string {
	return fmt.Sprintf("cannot read %s as an existing resource: plinth manages a resource with this URN (ID %q), and reading it would leave that resource unmanaged but never deleted; give the get a different name, or run `plinth state rm %s` first if plinth should stop managing it", e.URN, e.ID, e.URN)
}

// readStep reads an external resource. old is its record from an earlier
// read, if any.
type readStep struct {
	c   *change
	old *state.Resource
}

// readStep generates the step of a read registration.
func (d *deployment) readStep(urn resource.URN, reg *Registration) (step, error) {
	c, err := d.newChange(urn, reg)
	if err != nil {
		return nil, err
	}
	old := c.old
	if old == nil {
		old = c.gone // newChange sets an external or missing record aside
	}
	if old != nil && !old.External {
		return nil, &ManagedReadError{URN: urn, ID: old.ID}
	}
	return readStep{c: c, old: old}, nil
}

func (s readStep) apply(x *executor) (Registered, error) {
	c := s.c
	if c.reg.ReadID == UnknownID {
		// A preview where the ID depends on what is not created yet.
		return Registered{URN: c.urn, ID: resource.Unknown(), Outputs: resource.Object{}, Custom: true}, nil
	}
	nr := x.newResource(c.urn, c.reg, c.reg.Inputs, c.inst.ref)
	nr.External = true
	start := x.started(OpRead, s.old, nr, c)
	if err := x.readExternal(c, nr); err != nil {
		x.done(OpRead, s.old, nr, c, start, err)
		return Registered{}, err
	}
	op, err := x.recordRead(s.old, nr)
	if err != nil {
		x.done(OpRead, s.old, nr, c, start, err)
		return Registered{}, err
	}
	x.count(op)
	x.done(op, s.old, nr, c, start, nil)
	return registered(nr), nil
}

// readExternal reads the resource by its ID into nr.
func (x *executor) readExternal(c *change, nr *state.Resource) error {
	id := c.reg.ReadID
	var resp provider.ReadResponse
	err := x.call(0, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Read(ctx, provider.ReadRequest{URN: c.urn, ID: id, State: c.reg.Inputs})
		return err
	})
	if err != nil {
		return fmt.Errorf("reading %s (ID %q): %w", c.urn, id, err)
	}
	if resp.ID == "" {
		return &ReadNotFoundError{URN: c.urn, ID: id}
	}
	// The inputs recorded stay the registration's, as Pulumi's read step
	// keeps them: the provider's inputs would differ from what pulumi
	// records, and a stack moved between the two would read as changed.
	nr.ID, nr.Outputs, nr.Private = resp.ID, resp.Outputs, resp.Private
	if nr.Outputs == nil {
		nr.Outputs = resource.Object{}
	}
	sealSecrets(nr) // as recorded, so that a rerun compares alike
	return nil
}

// recordRead writes what a read found, if it differs from the last read,
// and says how the step is counted: read, or same when nothing changed.
func (x *executor) recordRead(old, nr *state.Resource) (StepOp, error) {
	if old == nil {
		return OpRead, x.write(state.OpImport, nil, nr)
	}
	nr.Created, nr.Modified = old.Created, old.Modified
	if sameRecord(old, nr) && !old.Missing {
		return OpSame, nil
	}
	nr.Modified = x.now()
	return OpRead, x.write(state.OpRead, old, nr)
}
