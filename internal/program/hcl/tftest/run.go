package tftest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/state"
)

// Config is how to run test files. It is not modified after it is given.
type Config struct {
	// Dir is the directory of the configuration under test; test files
	// and run blocks' module sources are relative to it.
	Dir string
	// Out receives the report.
	Out io.Writer
	// Verbose adds each run's values to the report (terraform test
	// -verbose).
	Verbose bool
	// Options are the engine options (providers, provisioners) for a run,
	// recording into journal (nil for a plan), whose providers answer for
	// what mocks fakes. Every run, a module block's too, finds its
	// providers from Dir, where terraform init installed them.
	Options func(journal engine.Journal, mocks Mocks) engine.Options
	// Getenv reads the environment (TF_VAR_ variables); nil means
	// os.Getenv.
	Getenv func(string) string
	// Vars and VarFiles are --var NAME=VALUE and --var-file FILE, which
	// every run takes unless the test directory's terraform.tfvars or
	// the test file sets the variable.
	Vars, VarFiles []string
}

// Status is the result of a run or a file.
type Status string

// The statuses, as the report words them.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Summary counts the runs of every file by status, and the files whose
// teardown failed (what their runs made may be left behind).
type Summary struct {
	Passed, Failed, Skipped int
	TeardownsFailed         int
}

// OK reports whether no run and no teardown failed.
func (s Summary) OK() bool { return s.Failed == 0 && s.TeardownsFailed == 0 }

// Execute runs the files in order and writes the report to c.Out. The error
// is for what stops the whole test (a configuration that does not load);
// a failing run is counted in the summary.
func Execute(ctx context.Context, c Config, files []*File) (Summary, error) {
	main, err := tfhcl.Load(c.Dir)
	if err != nil {
		return Summary{}, err
	}
	tmp, err := os.MkdirTemp("", "plinth-test-")
	if err != nil {
		return Summary{}, err
	}
	defer os.RemoveAll(tmp)
	testVars, err := testDirVars(c.Dir)
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	for i, f := range files {
		fr := &fileRunner{c: c, f: f, main: main, testVars: testVars, tmp: filepath.Join(tmp, "f"+strconv.Itoa(i)), rep: &report{w: c.Out, verbose: c.Verbose},
			configs: map[string]*tfhcl.Config{"": main}, outputs: map[string]cty.Value{}}
		if err := os.Mkdir(fr.tmp, 0o700); err != nil {
			return sum, err
		}
		fr.run(ctx, &sum)
	}
	writeTotals(c.Out, sum)
	if err := ctx.Err(); err != nil {
		return sum, fmt.Errorf("the test was interrupted: the runs after the interruption were skipped, and what the runs made was destroyed: %w", err)
	}
	return sum, nil
}

// fileRunner runs one test file.
type fileRunner struct {
	c    Config
	f    *File
	main *tfhcl.Config
	tmp  string // this file's directory for variable files
	// testVars are the test directory's terraform.tfvars.
	testVars runVars
	rep      *report

	configs map[string]*tfhcl.Config // by module source; "" is the configuration under test
	states  []*modState              // in the order they were first used
	outputs map[string]cty.Value     // run.NAME: the outputs of the runs so far
	failed  bool
}

// modState is the state of one module under test within a file: runs
// of the same module share it.
type modState struct {
	source string
	cfg    *tfhcl.Config
	snap   *state.Snapshot
	vars   runVars // the variables of the last run that applied it
	mocks  Mocks   // the mocks of the last run that applied it
}

// run runs the file's runs in order, then destroys what they made.
func (fr *fileRunner) run(ctx context.Context, sum *Summary) {
	fr.rep.line("%s... in progress", fr.f.Name)
	stop := false
	for _, r := range fr.f.runs {
		if stop || ctx.Err() != nil {
			fr.rep.line("  run %q... %s", r.Name, Skip)
			sum.Skipped++
			continue
		}
		res := fr.runOne(ctx, r)
		fr.rep.line("  run %q... %s", r.Name, res.status)
		for i := range res.diags {
			res.diags[i].run = r.Name
		}
		fr.rep.diags(fr, res.diags)
		if fr.c.Verbose && res.scope != nil {
			fr.rep.values(res.scope)
		}
		stop = res.stop
		switch res.status {
		case Pass:
			sum.Passed++
		default:
			sum.Failed++
			fr.failed = true
		}
	}
	fr.rep.line("%s... tearing down", fr.f.Name)
	// An interruption skips the runs, never the teardown: what the runs
	// made is not left behind.
	if !fr.teardown(context.WithoutCancel(ctx)) {
		sum.TeardownsFailed++
	}
	st := Pass
	if fr.failed {
		st = Fail
	}
	fr.rep.line("%s... %s", fr.f.Name, st)
}

// teardown destroys every state the file's runs left, the newest first;
// it reports whether all were destroyed.
func (fr *fileRunner) teardown(ctx context.Context) bool {
	ok := true
	for i := len(fr.states) - 1; i >= 0; i-- {
		ms := fr.states[i]
		if len(ms.snap.Resources) == 0 {
			continue
		}
		if err := fr.destroy(ctx, ms); err != nil {
			fr.rep.diags(fr, []diag{errorDiag(err)})
			fr.leftBehind(ms)
			fr.failed, ok = true, false
		}
	}
	return ok
}

// leftBehind lists what a failed destroy left, for the user to delete
// by hand: the state was in memory only and is gone when plinth exits.
func (fr *fileRunner) leftBehind(ms *modState) {
	var left []string
	for _, r := range ms.snap.Resources {
		if r.Custom && !state.IsProviderType(r.Type) && !r.Delete {
			left = append(left, r.URN.Name())
		}
	}
	if len(left) == 0 {
		return
	}
	fr.rep.line("\nplinth could not destroy these resources %s made, and they need to be deleted by hand:", fr.f.Name)
	for _, a := range left {
		fr.rep.line("  - %s", a)
	}
}

// destroy destroys one state, with the providers configured from the
// module's configuration and the variables its last run had.
func (fr *fileRunner) destroy(ctx context.Context, ms *modState) error {
	setup, err := ms.cfg.Program(nil, fr.programOptions(ms.vars, nil, true))
	if err != nil {
		return err
	}
	j := state.NewMemoryJournal(ms.snap)
	opts := fr.c.Options(j, ms.mocks)
	opts.DestroySetup = setup.WithOverrides(ms.mocks.Overrides())
	_, err = engine.Destroy(ctx, ms.snap, opts)
	ms.snap = j.Snapshot()
	return err
}

// module is the state of the module a run tests, loading it on first
// use.
func (fr *fileRunner) module(r *Run) (*modState, error) {
	for _, ms := range fr.states {
		if ms.source == r.module {
			return ms, nil
		}
	}
	cfg, ok := fr.configs[r.module]
	if !ok {
		var err error
		if cfg, err = tfhcl.LoadNamedFrom(filepath.Join(fr.c.Dir, filepath.FromSlash(r.module)), fr.c.Dir); err != nil {
			return nil, err
		}
		fr.configs[r.module] = cfg
	}
	ms := &modState{source: r.module, cfg: cfg, snap: &state.Snapshot{}}
	fr.states = append(fr.states, ms)
	return ms, nil
}

// errorDiag is an error that is not a program diagnostic, as one.
func errorDiag(err error) diag {
	return diag{severity: hcl.DiagError, summary: "Error", detail: err.Error()}
}
