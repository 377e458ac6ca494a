package cli

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plan"
	"github.com/plinth-iac/plinth/internal/state"
)

// Saved plans: `preview --save-plan FILE` records the preview's steps,
// `up --plan FILE` applies exactly those (internal/plan).

// planHeader is what a plan of this run is made, or applied, against.
func (r *stackRun) planHeader(f opFlags, v state.Version) plan.Header {
	return plan.Header{
		Plinth: Version, Project: r.project.Name(), Stack: r.ws.stack, State: v,
		Targets: f.targets, Excludes: f.excludes, Replaces: f.replaces,
	}
}

// programArgs are the command line arguments that change the program.
func programArgs(f opFlags) []string {
	var out []string
	for _, v := range f.vars {
		out = append(out, "-var="+v)
	}
	for _, v := range f.varFiles {
		out = append(out, "-var-file="+v)
	}
	return out
}

// newPlan starts the plan `preview --save-plan` records, with the
// program's digest; it is written by savePlan once the preview is done.
func (r *stackRun) newPlan(f opFlags, v state.Version) (*plan.Plan, error) {
	p, err := plan.New(r.planHeader(f, v), r.crypter, r.a.env.now())
	if err != nil {
		return nil, err
	}
	if p.Program, err = p.ProgramDigest(r.ws.dir, r.ws.stack, programArgs(f)); err != nil {
		return nil, err
	}
	return p, nil
}

// savePlan writes the plan with the preview's summary.
func (r *stackRun) savePlan(p *plan.Plan, path string, res *engine.Result) error {
	p.Summary = map[string]int{}
	for op, n := range res.Counts {
		p.Summary[string(op)] = n
	}
	if err := p.Write(path); err != nil {
		return display.Errorf("Cannot save the plan", "%v (%s).", err, path)
	}
	r.view.Notice(fmt.Sprintf("Saved the plan to %s: `plinth up --plan %s` applies exactly these steps to stack %s, as long as its state and the program stay as they are.", path, path, r.ws.stack))
	return nil
}

// readPlan reads the plan of `up --plan` and checks that it applies to
// the session's state and the program as they are now.
func (r *stackRun) readPlan(path string, f opFlags, sess *state.Session) (*plan.Plan, error) {
	p, err := plan.Read(path, r.ws.stack, r.crypter)
	if err != nil {
		return nil, display.Errorf("Cannot use the plan", "%v", err)
	}
	program, err := p.ProgramDigest(r.ws.dir, r.ws.stack, programArgs(f))
	if err != nil {
		return nil, err
	}
	f.targets, f.excludes, f.replaces = p.Targets, p.Excludes, p.Replaces
	if err := p.Check(path, r.planHeader(f, sess.Version()), program); err != nil {
		return nil, display.Errorf("The plan no longer applies", "%v", err)
	}
	return p, nil
}

// planFlagsConflict refuses flags `up --plan` cannot honour: what to do
// comes from the plan.
func planFlagsConflict(f upFlags) error {
	switch {
	case len(f.targets) > 0 || len(f.excludes) > 0 || len(f.replaces) > 0:
		return display.Errorf("Invalid command line", "--target, --exclude and --replace cannot be given with --plan: the plan holds the ones it was made with.")
	case f.refresh:
		return display.Errorf("Invalid command line", "--refresh cannot be given with --plan: a refresh changes the state the plan was made against. Run `plinth refresh` first, then make the plan again.")
	}
	return nil
}

// loadVersioned reads the stack's state and its version, without locking.
func (w *workspace) loadVersioned(ctx context.Context, c state.Crypter) (*state.Snapshot, state.Version, error) {
	return state.LoadVersion(ctx, w.backend, w.stack, state.OpenOptions{Crypter: c, Verify: true, Warn: w.warnState})
}
