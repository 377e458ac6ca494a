package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ImportMismatchError reports an import whose program inputs do not
// describe the resource as it exists.
type ImportMismatchError struct {
	URN   resource.URN
	ID    string
	Paths []string
	// Replace says the difference would replace the resource, which an
	// import that updates (Registration.ImportUpdates) does not do.
	Replace bool
}

func (e *ImportMismatchError) Error() string {
	if e.Replace {
		return fmt.Sprintf("cannot import %s (ID %q): the configuration differs from the resource as it exists in properties that force its replacement: %s; plinth imports and then updates a resource, but does not replace one it imports: change the configuration to match the resource, import it, then change the configuration",
			e.URN, e.ID, strings.Join(e.Paths, ", "))
	}
	return fmt.Sprintf("cannot import %s (ID %q): the program's inputs differ from the resource as it exists in these properties: %s; change the program to match the resource, then import again",
		e.URN, e.ID, strings.Join(e.Paths, ", "))
}

// The steps that read: import and refresh. Reads change nothing in the
// world, so they are not bracketed by the journal; what they find is
// written once known.

// importStep adopts an existing resource: Read by ID, Check the program's
// inputs against what was read, and require that Diff finds no change. An
// import registration with no inputs adopts the resource as read; one with
// ImportUpdates imports the resource as read, then updates it when Diff
// finds a change.
type importStep struct{ c *change }

func (s importStep) apply(x *executor) (Registered, error) {
	c := s.c
	id := c.reg.ImportID
	if c.old != nil {
		return Registered{}, fmt.Errorf("cannot import %s with ID %q: the state already holds it with ID %q; run `plinth state rm %s` first to adopt another", c.urn, id, c.old.ID, c.urn)
	}
	start := x.started(OpImport, nil, &state.Resource{URN: c.urn, Type: c.reg.Type}, nil)
	nr, update, err := x.importRead(c, id)
	if err != nil {
		x.done(OpImport, nil, &state.Resource{URN: c.urn, Type: c.reg.Type}, nil, start, err)
		return Registered{}, err
	}
	if err := x.write(state.OpImport, nil, nr); err != nil {
		return Registered{}, err
	}
	x.count(OpImport)
	x.done(OpImport, nil, nr, nil, start, nil)
	if update {
		c.old = nr
		return updateStep{c}.apply(x)
	}
	return registered(nr), nil
}

// importRead reads the resource to import and checks the program's
// inputs against it. update says they differ and the registration asks
// for an update after the import (ImportUpdates): the resource returned
// is as read, and c holds the checked inputs and the diff.
func (x *executor) importRead(c *change, id string) (nr *state.Resource, update bool, err error) {
	var read provider.ReadResponse
	err = x.call(0, func(ctx context.Context) (err error) {
		read, err = c.inst.p.Read(ctx, provider.ReadRequest{URN: c.urn, ID: id})
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("importing %s: reading ID %q: %w", c.urn, id, err)
	}
	if read.ID == "" {
		return nil, false, fmt.Errorf("cannot import %s: the provider found no resource with ID %q", c.urn, id)
	}
	news := c.reg.Inputs
	if len(news) == 0 {
		news = read.Inputs // adopt the resource as it is
	}
	c.old = &state.Resource{Inputs: read.Inputs}
	checked, err := check(x.ctx, c, news, true)
	c.old = nil
	if err != nil {
		return nil, false, fmt.Errorf("importing %s: %w", c.urn, err)
	}
	dd, update, err := x.importDiff(c, read, checked)
	if err != nil {
		return nil, false, err
	}
	inputs := checked
	if update {
		inputs, c.inputs, c.diff = read.Inputs, checked, dd
	}
	nr = x.newResource(c.urn, c.reg, inputs, c.inst.ref)
	nr.ID, nr.Outputs, nr.Private = read.ID, read.Outputs, read.Private
	markSecretID(nr, inputs, false)
	return nr, update, nil
}

// importDiff requires that the checked inputs describe the resource read,
// unless the registration has ImportUpdates: then it returns the diff of
// the update that brings the resource to them (update is false when
// there is none), and fails only for a difference that would replace it.
func (x *executor) importDiff(c *change, read provider.ReadResponse, checked resource.Object) (dd resource.DetailedDiff, update bool, err error) {
	var resp provider.DiffResponse
	err = x.call(0, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Diff(ctx, provider.DiffRequest{URN: c.urn, ID: read.ID, OldInputs: read.Inputs, OldOutputs: read.Outputs, News: checked, Private: read.Private})
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("importing %s: diffing: %w", c.urn, err)
	}
	dd = resp.DetailedDiff
	if resp.Changes == provider.DiffUnknown || (resp.Changes == provider.DiffSome && len(dd) == 0) {
		dd = resource.DiffObjects(read.Inputs, checked, nil)
		markReplaceKeys(dd, resp.ReplaceKeys)
	}
	paths := dd.Paths()
	if resp.Changes == provider.DiffSome && len(paths) == 0 {
		paths = append(resp.ChangedKeys, resp.ReplaceKeys...)
		if len(paths) == 0 {
			paths = []string{"(the provider named none)"}
		}
	}
	switch {
	case resp.Changes == provider.DiffNone || len(paths) == 0:
		return nil, false, nil
	case !c.reg.ImportUpdates:
		return nil, false, &ImportMismatchError{URN: c.urn, ID: read.ID, Paths: paths}
	case resp.Replaces() || len(dd.ReplacePaths()) > 0:
		return nil, false, &ImportMismatchError{URN: c.urn, ID: read.ID, Paths: paths, Replace: true}
	}
	return dd.Clone(), true, nil
}

// refreshStep reads one resource and records what it finds. referenced
// says other recorded resources depend on it.
type refreshStep struct {
	r          *state.Resource
	referenced bool
}

func (s refreshStep) apply(x *executor) (Registered, error) {
	return Registered{}, x.refresh(s.r, s.referenced)
}

func (x *executor) refresh(r *state.Resource, referenced bool) error {
	start := x.started(OpRefresh, r, r, nil)
	resp, err := x.read(r)
	if err != nil {
		x.done(OpRefresh, r, r, nil, start, err)
		return err
	}
	if resp.ID == "" {
		return x.refreshedGone(r, referenced, start)
	}
	nr := r.Clone()
	// What was secret stays secret: a provider may read back in the clear
	// what it was given sealed.
	nr.ID, nr.Outputs, nr.Private = resp.ID, sealDerived(resp.Outputs, r.Outputs), resp.Private
	// An external resource (read, not managed) keeps the inputs its read
	// recorded, the program's: see readExternal.
	if resp.Inputs != nil && !r.External {
		nr.Inputs = sealDerived(resp.Inputs, r.Inputs)
	}
	markSecretID(nr, nr.Inputs, r.SecretID)
	sealSecrets(nr) // as recorded, so that they are no drift
	drift := resource.DiffObjects(r.Outputs, nr.Outputs, nil)
	op := OpSame
	switch {
	case privateOnly(r, nr):
		// Recorded, so the next read or plan passes them on (a Terraform
		// provider finds its fingerprint and skips upgrading the state),
		// but nothing the user manages changed: not an update, as
		// terraform's refresh-only plan shows none.
		if err := x.write(state.OpRead, r, nr); err != nil {
			return err
		}
	case !sameRecord(r, nr):
		op = OpUpdate
		nr.Modified = x.now()
		if err := x.write(state.OpRead, r, nr); err != nil {
			return err
		}
	}
	x.count(op)
	x.emit(Event{Kind: EventStepDone, Op: OpRefresh, URN: r.URN, Type: r.Type, Old: r, New: nr, Diff: drift, Duration: time.Since(start)})
	return nil
}

// privateOnly reports whether a refreshed record differs from the old
// one in its provider-private bytes alone.
func privateOnly(old, nr *state.Resource) bool {
	if slices.Equal(old.Private, nr.Private) {
		return false
	}
	p := nr.Private
	nr.Private = old.Private
	same := sameRecord(old, nr)
	nr.Private = p
	return same
}

// refreshedGone records a resource deleted outside plinth: it leaves the
// state, unless other resources depend on it; then it stays, marked
// Missing, so that the state stays whole and the next update creates it
// again (and updates its dependents as usual).
func (x *executor) refreshedGone(r *state.Resource, referenced bool, start time.Time) error {
	var nr *state.Resource
	msg := "deleted outside plinth; removed from the state"
	if referenced {
		nr = r.Clone()
		nr.Missing, nr.Modified = true, x.now()
		msg = "deleted outside plinth; other resources depend on it, so it stays in the state as missing and the next `plinth up` creates it again"
	}
	if err := x.write(state.OpRead, r, nr); err != nil {
		return err
	}
	x.count(OpDelete)
	x.emit(Event{Kind: EventStepDone, Op: OpRefresh, URN: r.URN, Type: r.Type, Old: r, Duration: time.Since(start), Message: msg})
	return nil
}

func (x *executor) read(r *state.Resource) (provider.ReadResponse, error) {
	inst, err := x.prov.forRef(r.Provider)
	if err != nil {
		return provider.ReadResponse{}, fmt.Errorf("refreshing %s: %w", r.URN, err)
	}
	var resp provider.ReadResponse
	err = x.call(0, func(ctx context.Context) (err error) {
		resp, err = inst.p.Read(ctx, provider.ReadRequest{URN: r.URN, ID: r.ID, Inputs: r.Inputs, State: r.Outputs, Private: r.Private})
		return err
	})
	if err != nil {
		return resp, fmt.Errorf("refreshing %s: %w", r.URN, err)
	}
	return resp, nil
}
