package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Destroy deletes every recorded resource (or only the targeted ones),
// dependents first, independent ones in parallel.
func Destroy(ctx context.Context, base *state.Snapshot, opts Options) (*Result, error) {
	if opts.Journal == nil {
		return nil, fmt.Errorf("destroy needs a journal to record its changes")
	}
	if err := blockingPending(base); err != nil {
		return nil, err
	}
	return destroy(ctx, base, &opts, false)
}

// PreviewDestroy reports what Destroy would delete.
func PreviewDestroy(ctx context.Context, base *state.Snapshot, opts Options) (*Result, error) {
	opts.Journal = nil
	return destroy(ctx, base, &opts, true)
}

func destroy(ctx context.Context, base *state.Snapshot, opts *Options, preview bool) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if err := checkTargetsInState(base, opts); err != nil {
		return nil, err
	}
	start := time.Now()
	d := newDeployment(ctx, base, opts, preview)
	defer d.prov.closeAll()
	doomed := d.doomed(base)
	if err := d.checkDependentsDoomed(base, doomed); err != nil {
		d.pool.close()
		return d.result(start), err
	}
	if err := refuseDeleteHooks(doomed); err != nil {
		d.pool.close()
		return d.result(start), err
	}
	if !preview {
		if err := d.acknowledgePending(base); err != nil {
			d.pool.close()
			return d.result(start), err
		}
	}
	if err := d.runDestroySetup(doomed); err != nil {
		err = errors.Join(err, d.closeEphemerals())
		d.pool.close()
		return d.result(start), err
	}
	d.deleteAll(doomed, deleteShown)
	d.fail(d.closeEphemerals()) // after the deletes, which may need them
	if !d.targets.limited() && !preview && !d.failed() && d.ctx.Err() == nil {
		d.mu.Lock()
		d.outputs, d.outputsSet = nil, true
		d.mu.Unlock()
		d.fail(d.recordOutputs())
	}
	d.pool.close()
	return d.result(start), d.err("destroy")
}

func (d *deployment) doomed(base *state.Snapshot) []*state.Resource {
	if base == nil {
		return nil
	}
	var out []*state.Resource
	for _, r := range base.Resources {
		if d.targets.has(r.URN) {
			out = append(out, r)
		}
	}
	return out
}

// checkDependentsDoomed refuses a targeted destroy that would leave a
// resource depending on one that is gone.
func (d *deployment) checkDependentsDoomed(base *state.Snapshot, doomed []*state.Resource) error {
	if !d.targets.limited() || base == nil {
		return nil
	}
	gone := map[resource.URN]bool{}
	for _, r := range doomed {
		for _, u := range state.URNKeys(r.URN) { // its group's dependents depend on it
			gone[u] = true
		}
	}
	var problems []string
	for _, r := range base.Resources {
		if gone[r.URN] {
			continue
		}
		for _, ref := range r.References() {
			if gone[ref] {
				problems = append(problems, fmt.Sprintf("%s depends on %s", r.URN, ref))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("cannot destroy only the targeted resources: %s; target the dependents too", strings.Join(problems, "; "))
	}
	return nil
}
