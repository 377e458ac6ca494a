package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Refresh reads every recorded custom resource from its provider and
// records what it finds: changed outputs are drift, an empty ID means the
// resource was deleted outside plinth and it leaves the state.
func Refresh(ctx context.Context, base *state.Snapshot, opts Options) (*Result, error) {
	if opts.Journal == nil {
		return nil, fmt.Errorf("refresh needs a journal to record its changes")
	}
	return refresh(ctx, base, &opts, false)
}

// PreviewRefresh reports the drift a refresh would record, recording
// nothing.
func PreviewRefresh(ctx context.Context, base *state.Snapshot, opts Options) (*Result, error) {
	opts.Journal = nil
	return refresh(ctx, base, &opts, true)
}

func refresh(ctx context.Context, base *state.Snapshot, opts *Options, preview bool) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if err := checkTargetsInState(base, opts); err != nil {
		return nil, err
	}
	start := time.Now()
	d := newDeployment(ctx, base, opts, preview)
	defer d.prov.closeAll()
	if !preview {
		if err := d.acknowledgePending(base); err != nil {
			return d.result(start), err
		}
	}
	referenced := referencedURNs(base)
	var wg sync.WaitGroup
	for _, r := range d.refreshable(base) {
		wg.Add(1)
		d.pool.submit(func() {
			defer wg.Done()
			if d.ctx.Err() != nil {
				return
			}
			d.fail(stepError(r.URN, d.refreshOne(r, referenced[r.URN])))
		})
	}
	wg.Wait()
	d.pool.close()
	return d.result(start), d.err("refresh")
}

// referencedURNs returns the URNs that some recorded resource refers to.
func referencedURNs(base *state.Snapshot) map[resource.URN]bool {
	out := map[resource.URN]bool{}
	if base != nil {
		for _, r := range base.Resources {
			for _, u := range r.References() {
				out[u] = true
			}
		}
	}
	return out
}

// refreshable lists the custom, non-provider resources within the targets,
// but not those already found missing.
func (d *deployment) refreshable(base *state.Snapshot) []*state.Resource {
	if base == nil {
		return nil
	}
	var out []*state.Resource
	for _, r := range base.Resources {
		if r.Custom && !isProvider(r.Type) && !r.Missing && d.targets.has(r.URN) {
			out = append(out, r)
		}
	}
	return out
}

// refreshOne reads one resource and records what it finds. referenced
// says other recorded resources depend on it.
func (d *deployment) refreshOne(r *state.Resource, referenced bool) error {
	start := d.started(OpRefresh, r, r, nil)
	resp, err := d.read(r)
	if err != nil {
		d.done(OpRefresh, r, r, nil, start, err)
		return err
	}
	if resp.ID == "" {
		return d.refreshedGone(r, referenced, start)
	}
	nr := r.Clone()
	nr.ID, nr.Outputs, nr.Private = resp.ID, resp.Outputs, resp.Private
	if resp.Inputs != nil {
		nr.Inputs = resp.Inputs
	}
	markSecretID(nr, nr.Inputs, r.SecretID)
	drift := resource.DiffObjects(r.Outputs, nr.Outputs, nil)
	op := OpSame
	if !sameRecord(r, nr) {
		op = OpUpdate
		nr.Modified = d.opts.now()
		if err := d.write(state.OpRead, r, nr); err != nil {
			return err
		}
	}
	d.count(op)
	d.emit(Event{Kind: EventStepDone, Op: OpRefresh, URN: r.URN, Type: r.Type, Old: r, New: nr, Diff: drift, Duration: time.Since(start)})
	return nil
}

// refreshedGone records a resource deleted outside plinth: it leaves the
// state, unless other resources depend on it; then it stays, marked
// Missing, so that the state stays whole and the next update creates it
// again (and updates its dependents as usual).
func (d *deployment) refreshedGone(r *state.Resource, referenced bool, start time.Time) error {
	var nr *state.Resource
	msg := "deleted outside plinth; removed from the state"
	if referenced {
		nr = r.Clone()
		nr.Missing, nr.Modified = true, d.opts.now()
		msg = "deleted outside plinth; other resources depend on it, so it stays in the state as missing and the next `plinth up` creates it again"
	}
	if err := d.write(state.OpRead, r, nr); err != nil {
		return err
	}
	d.count(OpDelete)
	d.emit(Event{Kind: EventStepDone, Op: OpRefresh, URN: r.URN, Type: r.Type, Old: r, Duration: time.Since(start), Message: msg})
	return nil
}

func (d *deployment) read(r *state.Resource) (provider.ReadResponse, error) {
	inst, err := d.prov.forRef(r.Provider)
	if err != nil {
		return provider.ReadResponse{}, fmt.Errorf("refreshing %s: %w", r.URN, err)
	}
	var resp provider.ReadResponse
	err = d.call(0, func(ctx context.Context) (err error) {
		resp, err = inst.p.Read(ctx, provider.ReadRequest{URN: r.URN, ID: r.ID, Inputs: r.Inputs, State: r.Outputs, Private: r.Private})
		return err
	})
	if err != nil {
		return resp, fmt.Errorf("refreshing %s: %w", r.URN, err)
	}
	return resp, nil
}
