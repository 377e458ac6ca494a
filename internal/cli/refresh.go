package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
)

func (a *app) refreshCommand() *cobra.Command {
	var f opFlags
	c := &cobra.Command{
		Use:   "refresh",
		Short: "Read every resource from its provider and record what changed outside plinth",
		Long: "Refresh asks each resource's provider what it looks like now and records that in the\n" +
			"stack's state: changed properties become the recorded ones, and resources deleted\n" +
			"outside plinth leave the state. It changes nothing in the world.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runRefresh(c.Context(), f) },
	}
	f.addCommon(c, "refresh")
	f.addTargets(c)
	f.addVars(c)
	return c
}

func (a *app) runRefresh(ctx context.Context, f opFlags) error {
	if err := a.needConfirmation("refresh", f); err != nil {
		return err
	}
	view := a.newView(f.json, f.diff)
	r, err := a.prepareFromState(ctx, view)
	if err != nil {
		return err
	}
	defer r.close()
	sess, err := r.openSession(ctx, "plinth refresh")
	if err != nil {
		return err
	}
	defer closeSession(sess)
	if err := r.resolveAddresses(&f, sess.Base(), nil); err != nil {
		return err
	}
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	r.carryProviders(ctx, !f.skipPreview)
	expected, err := r.previewAndConfirm(ctx, hard, "refresh", "Do you want to record these changes in the state?", f, nil, func(opts engine.Options) (*engine.Result, error) {
		return engine.PreviewRefresh(ctx, sess.Base(), opts)
	})
	if err != nil {
		return err
	}
	opts, err := r.options(sess, hard, f)
	if err != nil {
		return err
	}
	_, err = r.phase(display.Operation{Verb: "refresh", Expected: expected}, false, func() (*engine.Result, error) {
		res, err := engine.Refresh(ctx, sess.Base(), opts)
		return res, errors.Join(err, r.finishSession(sess, res, err))
	})
	return err
}
