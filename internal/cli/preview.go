package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plan"
	"github.com/plinth-iac/plinth/internal/state"
)

type previewFlags struct {
	opFlags
	detailed bool
	refresh  bool
	savePlan string
}

func (a *app) previewCommand() *cobra.Command {
	var f previewFlags
	c := &cobra.Command{
		Use:   "preview",
		Short: "Show what an update would change, changing nothing",
		Long: "Preview runs the program against the stack's recorded state and shows what `plinth up`\n" +
			"would create, update, replace and delete, and how the stack outputs would change.\n" +
			"Nothing is changed and the stack is not locked.\n\n" +
			"With --refresh it first reads every resource from its provider and shows what changed\n" +
			"outside plinth (recording nothing), then previews against what it read, as terraform\n" +
			"plan does.\n\n" +
			"With --detailed-exitcode the exit code says what it found: 0 no changes, 2 changes\n" +
			"(to resources or to stack outputs), 1 an error (as terraform plan -detailed-exitcode).\n\n" +
			"With --save-plan FILE it saves the plan: `plinth up --plan FILE` then applies exactly\n" +
			"these steps, and refuses if the stack's state or the program changed in between\n" +
			"(as terraform plan -out and terraform apply PLANFILE).\n\n" +
			"With --generate-config-out FILE (Terraform configurations), an import block whose target\n" +
			"has no resource block is allowed: the resource is read and a resource block for it written\n" +
			"to FILE, which must not exist, for you to review and move into your configuration\n" +
			"(as terraform plan -generate-config-out).",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runPreview(c.Context(), f) },
	}
	c.Flags().BoolVar(&f.detailed, "detailed-exitcode", false, "exit 2 when there are changes, 0 when none, 1 on error")
	c.Flags().BoolVarP(&f.refresh, "refresh", "r", false, "read the resources from their providers first and preview against what they are now (records nothing)")
	c.Flags().StringVar(&f.savePlan, "save-plan", "", "save the plan to `FILE`, for `plinth up --plan FILE`")
	markPaths(c, "save-plan")
	c.Flags().StringVar(&f.genConfigOut, "generate-config-out", "", "write configuration for import blocks that have no resource block to `FILE` (must not exist)")
	c.Flags().BoolVar(&f.json, "json", false, "write newline-delimited JSON events (for a Pulumi program, one JSON document shaped like `pulumi preview --json`)")
	c.Flags().BoolVar(&f.diff, "diff", false, "show every changed property")
	c.Flags().IntVarP(&f.parallel, "parallel", "p", 0, "run at most `N` provider steps at once, 1 or more (default 16 per CPU)")
	f.parallelSet = func() bool { return c.Flags().Changed("parallel") }
	f.addTargets(c)
	f.addReplace(c)
	f.addVars(c)
	return c
}

func (a *app) runPreview(ctx context.Context, f previewFlags) error {
	vopts := a.viewOptions(f.json, f.diff)
	vopts.Digest = true // a Pulumi program's preview --json is one document, as pulumi's
	view := display.New(vopts)
	r, err := a.prepare(ctx, view)
	if err != nil {
		return err
	}
	defer r.close()
	ev, err := r.evaluator(f.opFlags)
	if err != nil {
		return err
	}
	if f.savePlan != "" && f.refresh {
		return display.Errorf("Invalid command line", "--refresh cannot be given with --save-plan: `plinth up --plan` applies the plan to the recorded state. Run `plinth refresh` first, then save the plan.")
	}
	base, version, err := r.ws.loadVersioned(ctx, r.crypter)
	if err != nil {
		return err
	}
	a.scrub.LearnSnapshot(base)
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	if err := r.resolveAddresses(&f.opFlags, base, r.learnURNs(ctx, hard, f.opFlags, ev, base)); err != nil {
		return err
	}
	opts, err := r.options(nil, hard, f.opFlags)
	if err != nil {
		return err
	}
	if f.refresh {
		if base, err = r.previewRefresh(ctx, base, opts); err != nil {
			return err
		}
	}
	var saved *plan.Plan
	if f.savePlan != "" {
		if saved, err = r.newPlan(f.opFlags, version); err != nil {
			return err
		}
		opts.CheckStep = saved.Record
	}
	opts.Events = notePending(base, opts.Events)
	res, err := r.phaseShowing(display.Operation{Verb: "update", Preview: true, NewStack: newStack(base)}, previewOutcome(base), func() (*engine.Result, error) {
		return engine.Preview(ctx, previewOf(ev), base, opts)
	})
	warnPending(r.view, base)
	if err != nil {
		return err
	}
	if saved != nil {
		if err := r.savePlan(saved, f.savePlan, res); err != nil {
			return err
		}
	}
	if f.detailed && changes(res, base) {
		return exitStatus(ExitChanges)
	}
	return nil
}

// previewRefresh reads every resource of base from its provider and
// returns the state the reads describe, recording nothing: the refresh
// runs against a journal in memory, which is dropped.
func (r *stackRun) previewRefresh(ctx context.Context, base *state.Snapshot, opts engine.Options) (*state.Snapshot, error) {
	mem := state.NewMemoryJournal(base)
	opts.Journal = mem
	events := opts.Events
	opts.Events = func(e engine.Event) {
		e.Preview = true // shown as the preview it is: nothing is recorded
		events(e)
	}
	_, err := r.phase(display.Operation{Verb: "refresh", Preview: true, Prelude: true}, false, func() (*engine.Result, error) {
		return engine.Refresh(ctx, base, opts)
	})
	if err != nil {
		return nil, err
	}
	return mem.Snapshot(), nil
}
