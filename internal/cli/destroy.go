package cli

import (
	"context"
	"errors"
	"slices"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/state"
)

func (a *app) destroyCommand() *cobra.Command {
	var f opFlags
	c := &cobra.Command{
		Use:   "destroy",
		Short: "Delete every resource of the stack",
		Long: "Destroy deletes every resource the stack's state records (or only the targeted ones),\n" +
			"dependents first. A protected resource stops it before anything is deleted: set\n" +
			"protect to false and run `plinth up` first.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runDestroy(c.Context(), f) },
	}
	f.addCommon(c, "destroy")
	f.addTargets(c)
	f.addVars(c)
	return c
}

func (a *app) runDestroy(ctx context.Context, f opFlags) error {
	if err := a.needConfirmation("destroy", f); err != nil {
		return err
	}
	view := a.newView(f.json, f.diff)
	r, err := a.prepareFromState(ctx, view)
	if err != nil {
		return err
	}
	defer r.close()
	sess, err := r.openSession(ctx, "plinth destroy")
	if err != nil {
		return err
	}
	defer closeSession(sess)
	if err := r.resolveAddresses(&f, sess.Base(), nil); err != nil {
		return err
	}
	if err := refuseProtected(sess.Base(), f.targets, f.excludes); err != nil {
		return err
	}
	if err := refusePending(sess.Base()); err != nil {
		return err
	}
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	r.carryProviders(ctx, !f.skipPreview)
	setup, err := r.destroySetup(f)
	if err != nil {
		return err
	}
	outputsOf := r.destroyedOutputs(sess.Base(), f)
	expected, err := r.previewAndConfirm(ctx, hard, "destroy", "Do you want to delete these resources?", f, outputsOf, func(opts engine.Options) (*engine.Result, error) {
		opts.DestroySetup = setup
		res, err := engine.PreviewDestroy(ctx, sess.Base(), opts)
		if res != nil && outputsOf != nil {
			res.Outputs = nil // an untargeted destroy removes the stack outputs too
		}
		return res, err
	})
	if err != nil {
		return err
	}
	opts, err := r.options(sess, hard, f)
	if err != nil {
		return err
	}
	opts.DestroySetup = setup
	_, err = r.phaseShowing(display.Operation{Verb: "destroy", Expected: expected}, r.destroyOutcome(sess.Base(), f), func() (*engine.Result, error) {
		res, err := engine.Destroy(ctx, sess.Base(), opts)
		return res, errors.Join(err, r.finishSession(sess, res, err))
	})
	return err
}

// destroyedOutputs is the state whose stack outputs the preview of a
// Terraform configuration's destroy shows removed ("Changes to Outputs:"
// with each "-> null", as terraform plan -destroy shows them), or nil:
// a targeted destroy, or another program's, keeps them.
// A Pulumi program's preview shows them removed too, as pulumi's preview
// of a destroy lists each with "- ".
func (r *stackRun) destroyedOutputs(base *state.Snapshot, f opFlags) *state.Snapshot {
	if r.pulumi == nil && !r.project.Terraform() || len(f.targets)+len(f.excludes) > 0 {
		return nil
	}
	return base
}

// destroyOutcome is what the end of a destroy shows: for a Pulumi
// program's untargeted destroy, the stack outputs it removed, as pulumi
// lists them ("Outputs:" with each marked "- ") and, with them, the
// stack resource deleted even where the stack records no resource.
func (r *stackRun) destroyOutcome(base *state.Snapshot, f opFlags) display.Outcome {
	if r.pulumi == nil || base == nil || len(f.targets)+len(f.excludes) > 0 {
		return display.Outcome{}
	}
	return display.Outcome{DiffOutputs: true, PriorOutputs: base.Outputs}
}

// destroySetup is what configures a Terraform configuration's providers
// for a destroy, as terraform does: the configuration run again, its
// provider blocks evaluated with their ephemeral inputs (ephemeral
// resources opened, ephemeral variables given), which the state never
// records. Its conditions are not checked, as terraform's destroy checks
// none. Other programs' providers are configured from the state.
func (r *stackRun) destroySetup(f opFlags) (engine.Program, error) {
	if r.pulumi != nil || !r.project.Terraform() {
		return nil, nil
	}
	return r.project.Program(r.config, r.shown(program.Options{Warn: func(d program.Diagnostic) {
		r.view.Diagnostic(display.FromProgram(d))
	}, Stack: r.ws.stack, Vars: f.vars, VarFiles: f.varFiles, Getenv: r.a.env.getenv, Destroy: true}))
}

// refuseProtected stops a destroy that would reach a protected resource
// before anything is deleted, so the state stays as it was.
func refuseProtected(base *state.Snapshot, targets, excludes []string) error {
	for _, r := range base.Resources {
		doomed := (len(targets) == 0 || slices.Contains(targets, string(r.URN))) && !slices.Contains(excludes, string(r.URN))
		if r.Protect && !r.Delete && doomed {
			return &engine.ProtectedError{URN: r.URN, Action: "delete"}
		}
	}
	return nil
}
