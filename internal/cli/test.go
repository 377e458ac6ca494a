package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/program/hcl/tftest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (a *app) testCommand() *cobra.Command {
	var filter []string
	var f opFlags
	c := &cobra.Command{
		Use:   "test",
		Short: "Run a Terraform configuration's test files (*.tftest.hcl)",
		Long: "Test runs the Terraform test files beside the configuration (*.tftest.hcl in the project\n" +
			"directory and in its tests directory) as terraform test does: each file's run blocks in\n" +
			"order, planning or applying the configuration (or the local module a run's module block\n" +
			"names) in a throwaway state kept in memory, checking expect_failures and the assert\n" +
			"blocks, then destroying what the runs made, newest first. No stack is read or written.\n\n" +
			"--filter FILE runs only the named files (repeatable); --var and --var-file give every run\n" +
			"variables, below the test directory's terraform.tfvars and the test files' own;\n" +
			"--verbose shows each run's\n" +
			"resources and outputs. The exit code is 1 when a run failed.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runTest(c.Context(), filter, f) },
	}
	c.Flags().StringArrayVar(&filter, "filter", nil, "run only this test `FILE`, relative to the project directory (repeatable)")
	f.addVars(c)
	return c
}

// runTest parses every test file first, so a mistake in any is found
// before anything is created, then runs them. Ctrl-C skips the runs not
// yet started; what the runs made is still destroyed.
func (a *app) runTest(ctx context.Context, filter []string, f opFlags) error {
	dir := a.g.dir
	if dir == "" {
		dir = "."
	}
	names, err := tftest.Find(dir, filter)
	if err != nil {
		return err
	}
	var files []*tftest.File
	var diags program.Diagnostics
	for _, n := range names {
		f, err := tftest.Parse(dir, n)
		if ds, ok := err.(program.Diagnostics); ok {
			diags = append(diags, ds...)
			continue
		}
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	if len(diags) > 0 {
		return diags
	}
	ctx, hard, stop := a.interruptible(ctx, a.newView(false, false))
	defer stop()
	sum, err := tftest.Execute(ctx, tftest.Config{Dir: dir, Out: a.scrub.Writer(a.env.Stdout), Verbose: a.g.verbose,
		Options: a.testOptions(dir, hard), Getenv: a.env.getenv, Vars: f.vars, VarFiles: f.varFiles}, files)
	if err != nil {
		return err
	}
	if !sum.OK() {
		return exitStatus(ExitError)
	}
	return nil
}

// testOptions builds the engine options of a test's runs: the providers
// of the configuration's directory (a module block's runs use them too,
// as terraform test uses the providers terraform init installed), no
// stack.
func (a *app) testOptions(dir string, hard context.Context) func(j engine.Journal, mocks tftest.Mocks) engine.Options {
	src := providerSource(dir, a.env.getenv, a.env.Stderr, a.g.verbose)
	none := func(string) resource.Object { return resource.Object{} }
	return func(j engine.Journal, mocks tftest.Mocks) engine.Options {
		return engine.Options{
			Stack: "default", Project: hcl.ProjectName(dir), Providers: mockSource{src, mocks}, Journal: j, Now: a.env.now,
			DefaultProviderConfig: providerConfig(dir, none), Provisioners: provisionerSource(dir),
			OneDefaultProvider: true, HardCancel: hard,
		}
	}
}
