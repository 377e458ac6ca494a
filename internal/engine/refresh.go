package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

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
		d.pool.submit(func(sl *slot) {
			defer wg.Done()
			if d.ctx.Err() != nil {
				return
			}
			_, err := d.x.runIn(sl, refreshStep{r: r, referenced: isReferenced(referenced, r.URN)})
			d.fail(stepError(r.URN, err))
		})
	}
	wg.Wait()
	d.pool.close()
	return d.result(start), d.err("refresh")
}

// isReferenced reports whether urn, or its dependency group, is referred to.
func isReferenced(referenced map[resource.URN]bool, urn resource.URN) bool {
	for _, u := range state.URNKeys(urn) {
		if referenced[u] {
			return true
		}
	}
	return false
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
