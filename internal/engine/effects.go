package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// effects are everything an operation and its preview do differently,
// chosen once when the executor is made: applying calls providers for real
// and records every change in the journal and the records; planning asks
// providers to plan, calls nothing that changes the world and records
// nothing. A new step kind that changes the world adds its call here.
type effects interface {
	// record writes a journal entry; once an End or Write entry is
	// durable, its change is applied to the records.
	record(e state.Entry) error
	// waits says whether record waits for its entry to be durable.
	waits() bool
	create(ctx context.Context, p provider.Provider, req provider.CreateRequest) (provider.CreateResponse, error)
	// created fills a new record from a successful create.
	created(nr *state.Resource, resp provider.CreateResponse, inputs resource.Object) error
	update(ctx context.Context, p provider.Provider, req provider.UpdateRequest) (provider.UpdateResponse, error)
	// delete deletes r in the world through x, reporting a failure as a
	// step done with an error (see deleteCustom); kept, if given, is the
	// record that stays (r marked Missing).
	delete(x *executor, r, kept *state.Resource, shown StepOp, start time.Time) error
	configure(ctx context.Context, p provider.Provider, inputs resource.Object) error
	// providerID gives a new provider resource its ID.
	providerID() string
	// runsHook says whether a resource hook runs (hooks.go).
	runsHook(h Hook) bool
}

// applying are the effects of an operation that changes things.
type applying struct {
	journal Journal
	ctx     context.Context
	recs    *records
	now     func() time.Time
}

var _ effects = applying{}

func (a applying) record(e state.Entry) error {
	e.Time = a.now()
	if err := a.journal.Record(a.ctx, &e); err != nil {
		return err
	}
	if e.Kind == state.End || e.Kind == state.Write {
		a.recs.apply(e.Op, e.Old, e.New)
	}
	return nil
}

func (applying) waits() bool { return true }

func (applying) create(ctx context.Context, p provider.Provider, req provider.CreateRequest) (provider.CreateResponse, error) {
	return p.Create(ctx, req)
}

func (applying) created(nr *state.Resource, resp provider.CreateResponse, inputs resource.Object) error {
	if resp.ID == "" {
		return fmt.Errorf("creating %s: the provider reported success but returned no ID, so plinth cannot track what it made", nr.URN)
	}
	fillCreated(nr, resp, inputs)
	return nil
}

func (applying) update(ctx context.Context, p provider.Provider, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	return p.Update(ctx, req)
}

func (applying) delete(x *executor, r, kept *state.Resource, shown StepOp, start time.Time) error {
	return x.deleteCustom(r, kept, shown, start)
}

func (applying) configure(ctx context.Context, p provider.Provider, inputs resource.Object) error {
	return configure(ctx, p, inputs, false)
}

func (applying) providerID() string { return newProviderID() }

func (applying) runsHook(Hook) bool { return true }

// planning are the effects of a preview. The records keep what a preview
// must still show: the old half of a create-before-delete replacement,
// awaiting its delete at the end as in the update, and resources taken
// over through an alias.
type planning struct{ recs *records }

var _ effects = planning{}

func (p planning) record(e state.Entry) error {
	if (e.Kind == state.End && e.Op == state.OpReplace) || (e.Kind == state.Write && e.Op == state.OpRename) {
		p.recs.apply(e.Op, e.Old, e.New)
	}
	return nil
}

func (planning) waits() bool { return false }

func (planning) create(ctx context.Context, p provider.Provider, req provider.CreateRequest) (provider.CreateResponse, error) {
	req.Preview = true
	return p.Create(ctx, req)
}

// runsHook runs in a preview only the hooks that ask to.
func (planning) runsHook(h Hook) bool { return h.OnPreview }

func (planning) created(nr *state.Resource, resp provider.CreateResponse, inputs resource.Object) error {
	fillCreated(nr, resp, inputs)
	nr.ID = UnknownID
	if nr.Outputs == nil {
		nr.Outputs = inputs
	}
	return nil
}

func (planning) update(ctx context.Context, p provider.Provider, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	req.Preview = true
	return p.Update(ctx, req)
}

func (planning) delete(*executor, *state.Resource, *state.Resource, StepOp, time.Time) error {
	return nil
}

func (planning) configure(ctx context.Context, p provider.Provider, inputs resource.Object) error {
	return configure(ctx, p, inputs, true)
}

func (planning) providerID() string { return UnknownID }

func fillCreated(nr *state.Resource, resp provider.CreateResponse, inputs resource.Object) {
	nr.ID, nr.Outputs, nr.Private = resp.ID, resp.Outputs, resp.Private
	markSecretID(nr, inputs, false)
}
