package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
)

type upFlags struct {
	opFlags
	refresh bool
	plan    string
}

func (a *app) upCommand() *cobra.Command {
	var f upFlags
	c := &cobra.Command{
		Use:     "up",
		Aliases: []string{"update"},
		Short:   "Create, update and delete resources until they match the program",
		Long: "Up previews the changes the program asks for, asks for confirmation (on a terminal;\n" +
			"elsewhere pass --yes), then makes them, recording every step in the stack's state.\n" +
			"Ctrl-C once stops starting new steps and saves; twice cancels the steps in flight.\n\n" +
			"With --plan FILE (saved by `plinth preview --save-plan FILE`) it applies exactly the\n" +
			"plan's steps without asking, and refuses if the stack's state, the stack or the program\n" +
			"changed since the plan was made (as terraform apply PLANFILE).",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runUp(c.Context(), f) },
	}
	f.addCommon(c, "update")
	f.addTargets(c)
	f.addReplace(c)
	f.addVars(c)
	c.Flags().BoolVarP(&f.refresh, "refresh", "r", false, "refresh the state from the providers first")
	c.Flags().StringVar(&f.plan, "plan", "", "apply exactly the plan saved in `FILE` by `plinth preview --save-plan`, without asking")
	markPaths(c, "plan")
	return c
}

func (a *app) runUp(ctx context.Context, f upFlags) error {
	if f.plan != "" {
		return a.runUpPlan(ctx, f)
	}
	if err := a.needConfirmation("up", f.opFlags); err != nil {
		return err
	}
	view := a.newView(f.json, f.diff)
	r, ev, sess, err := a.startUpdate(ctx, view, f.opFlags)
	if err != nil {
		return err
	}
	defer closeSession(sess)
	defer r.close()
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	r.carryProviders(ctx, !f.skipPreview || f.refresh)
	base := sess.Base()
	if err := r.resolveAddresses(&f.opFlags, base, r.learnURNs(ctx, hard, f.opFlags, ev, base)); err != nil {
		return err
	}
	if f.refresh {
		if base, err = r.refreshFirst(ctx, sess, hard, f.opFlags); err != nil {
			return err
		}
	}
	if err := refusePending(base); err != nil {
		return err
	}
	// The update applies the plans its preview's providers made, for
	// each resource whose inputs and state are still what they were.
	plans := engine.NewPlans()
	expected, err := r.previewAndConfirm(ctx, hard, "update", "Do you want to perform this update?", f.opFlags, base, func(opts engine.Options) (*engine.Result, error) {
		opts.Plans = plans
		return engine.Preview(ctx, previewOf(ev), base, opts)
	})
	if err != nil {
		return err
	}
	opts, err := r.options(sess, hard, f.opFlags)
	if err != nil {
		return err
	}
	opts.Plans = plans
	show := display.Outcome{ShowOutputs: true}
	if base != nil {
		show.PriorOutputs, show.PriorResources = base.Outputs, len(base.Resources) > 0
	}
	_, err = r.phaseShowing(display.Operation{Verb: "update", Expected: expected, NewStack: newStack(base)}, show, func() (*engine.Result, error) {
		res, err := engine.Update(ctx, ev, base, opts)
		return res, errors.Join(err, r.finishSession(sess, res, err))
	})
	return err
}

// startUpdate does the setup that `up` and `up --plan` share: it
// prepares the stack, builds the program's evaluator and opens the state
// session the update records into (the caller closes both).
func (a *app) startUpdate(ctx context.Context, view display.View, f opFlags) (*stackRun, engine.Program, *state.Session, error) {
	r, err := a.prepare(ctx, view)
	if err != nil {
		return nil, nil, nil, err
	}
	ev, err := r.evaluator(f)
	var sess *state.Session
	if err == nil {
		sess, err = r.openSession(ctx, "plinth up")
	}
	if err != nil {
		r.close()
		return nil, nil, nil, err
	}
	return r, ev, sess, nil
}

// carryProviders has the source keep the providers one operation
// closes for the command's next (registry.Source.Carry) when the command
// runs several: the preview's providers serve the operation it previews
// while their configuration is unchanged.
func (r *stackRun) carryProviders(ctx context.Context, several bool) {
	if r.carry != nil && several {
		r.carry(ctx)
	}
}

// refreshFirst runs the refresh of `up --refresh` and returns the state
// it leaves.
func (r *stackRun) refreshFirst(ctx context.Context, sess *state.Session, hard context.Context, f opFlags) (*state.Snapshot, error) {
	opts, err := r.options(sess, hard, f)
	if err != nil {
		return nil, err
	}
	_, err = r.phase(display.Operation{Verb: "refresh", Prelude: true}, false, func() (*engine.Result, error) {
		return engine.Refresh(ctx, sess.Base(), opts)
	})
	if err != nil {
		return nil, err
	}
	return sess.Snapshot(), nil
}

// previewAndConfirm shows the preview of an operation (unless
// --skip-preview) and, without --yes, asks whether to go ahead when it
// would change something. It returns how many steps the preview found.
// outputsOf, if not nil, is the state whose stack outputs the preview
// may change (an update's).
func (r *stackRun) previewAndConfirm(ctx, hard context.Context, verb, question string, f opFlags, outputsOf *state.Snapshot, preview func(engine.Options) (*engine.Result, error)) (int, error) {
	if f.skipPreview {
		if f.yes {
			return 0, nil
		}
		return 0, r.a.confirm(ctx, question+" (no preview was run)")
	}
	opts, err := r.options(nil, hard, f)
	if err != nil {
		return 0, err
	}
	show := display.Outcome{}
	if outputsOf != nil {
		show = previewOutcome(outputsOf)
	}
	res, err := r.phaseShowing(display.Operation{Verb: verb, Preview: true, NewStack: verb == "update" && newStack(outputsOf)}, show, func() (*engine.Result, error) { return preview(opts) })
	if err != nil {
		return 0, err
	}
	if !f.yes && changes(res, outputsOf) {
		if err := r.a.confirm(ctx, question); err != nil {
			return 0, err
		}
	}
	return total(res), nil
}

func total(res *engine.Result) int {
	n := 0
	for _, c := range res.Counts {
		n += c
	}
	return n
}

// runUpPlan is `up --plan FILE`: the update, checked against the saved
// plan before it starts and before each step, with no preview or
// confirmation (the plan was confirmed by saving it).
func (a *app) runUpPlan(ctx context.Context, f upFlags) error {
	if err := planFlagsConflict(f); err != nil {
		return err
	}
	view := a.newView(f.json, f.diff)
	r, ev, sess, err := a.startUpdate(ctx, view, f.opFlags)
	if err != nil {
		return err
	}
	defer closeSession(sess)
	defer r.close()
	p, err := r.readPlan(f.plan, f.opFlags, sess)
	if err != nil {
		return err
	}
	f.targets, f.excludes, f.replaces = p.Targets, p.Excludes, p.Replaces
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	opts, err := r.options(sess, hard, f.opFlags)
	if err != nil {
		return err
	}
	check := p.Verifier(f.plan)
	opts.CheckStep = check.Check
	_, err = r.phase(display.Operation{Verb: "update", Expected: p.Total(), NewStack: newStack(sess.Base())}, true, func() (*engine.Result, error) {
		res, err := engine.Update(ctx, ev, sess.Base(), opts)
		if err == nil {
			err = check.Unapplied()
		}
		return res, errors.Join(err, r.finishSession(sess, res, err))
	})
	return err
}
