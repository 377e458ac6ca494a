package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// stackRun is a stack made ready for an engine operation: its program
// loaded, its secrets opened and its config read.
type stackRun struct {
	a       *app
	ws      *workspace
	project project
	pulumi  *langhost.Program // instead of project, for a Pulumi program
	crypter *secrets.Crypter
	config  map[string]resource.Value
	view    display.View
	source  engine.ProviderSource
	// targeted says the operation's --target limits it (options sets it),
	// which the Terraform style warns about.
	targeted bool
	// release closes providers started ahead and not used (close).
	release func()
	// carry, if set, keeps the providers one operation closes for the
	// command's next (registry.Source.Carry), until release.
	carry func(context.Context)
}

// prepare loads everything an operation needs, in the order that finds
// mistakes cheapest first: the program, the secrets, the stack config.
func (a *app) prepare(ctx context.Context, view display.View) (*stackRun, error) {
	return a.prepareFor(ctx, view, true)
}

// prepareFromState is prepare for an operation that works from the state
// alone and never runs the program (destroy, refresh): a Pulumi program's
// language runtime and SDK (node, node_modules) need not be there, as
// with pulumi destroy and pulumi refresh.
func (a *app) prepareFromState(ctx context.Context, view display.View) (*stackRun, error) {
	return a.prepareFor(ctx, view, false)
}

// prepareFor is prepare; runsProgram says whether the operation will run
// the program.
func (a *app) prepareFor(ctx context.Context, view display.View, runsProgram bool) (*stackRun, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	if isPulumiProject(ws.dir) {
		return a.preparePulumi(ctx, view, ws, runsProgram)
	}
	p, err := ws.program()
	if err != nil {
		return nil, err
	}
	c, err := ws.crypterInBackground(ctx)
	if err != nil {
		return nil, display.Summarise("Cannot open the stack's secrets", err)
	}
	cf, err := ws.configFile()
	if err != nil {
		return nil, err
	}
	cfg, err := cf.Values(c)
	if err != nil {
		return nil, err
	}
	for _, v := range cfg {
		a.scrub.Learn(v)
	}
	src := providerSource(ws.dir, a.env.getenv, a.env.Stderr, a.g.verbose)
	if p.Terraform() {
		found, err := checkTerraformProviders(ctx, ws.dir, src.Finder, schemacache.Cache{Dir: schemaCacheDir(a.env.getenv)})
		if err != nil {
			return nil, err
		}
		// Start them while the state loads (registry.Source.Prestart).
		for _, pl := range found {
			src.Prestart(pl)
		}
	}
	return &stackRun{a: a, ws: ws, project: p, crypter: c, config: cfg, view: view, source: src, release: src.Release, carry: src.Carry}, nil
}

// close releases what prepare started ahead of the operation and the
// operation did not take. Every command that prepares defers it.
func (r *stackRun) close() {
	if r.release != nil {
		r.release()
	}
}

// evaluator checks the stack's config against the program and returns
// the program to run; its warnings go to the view.
func (r *stackRun) evaluator(f opFlags) (engine.Program, error) {
	if r.pulumi != nil {
		return r.pulumi, nil
	}
	return r.project.Program(r.config, r.shown(program.Options{Warn: func(d program.Diagnostic) {
		r.view.Diagnostic(display.FromProgram(d))
	}, Stack: r.ws.stack, Vars: f.vars, VarFiles: f.varFiles, Getenv: r.a.env.getenv, GenerateConfigOut: r.genConfigPath(f.genConfigOut),
		DeferredRead: func(d program.DeferredRead) {
			urn := resource.NewURN(r.ws.stack, r.project.Name(), "", d.Type, d.Address)
			display.DeferredRead(r.view, urn, d.Type, d.Args, d.Reason)
		},
		OutputTypes: func(t map[string]json.RawMessage) { display.OutputTypes(r.view, t) },
	}))
}

// shown gives opts the hooks by which the view shows reads and knows the
// providers' schemas, which a destroy's run of the program needs too.
func (r *stackRun) shown(opts program.Options) program.Options {
	opts.Reading = func(rd program.Reading) { display.Reading(r.view, rd) }
	opts.TypeSchema = func(s program.TypeSchema) { display.TypeSchema(r.view, s) }
	return opts
}

// genConfigPath is the --generate-config-out file, relative to the
// project directory as terraform's is to its working directory.
func (r *stackRun) genConfigPath(out string) string {
	if out == "" || filepath.IsAbs(out) {
		return out
	}
	return filepath.Join(r.ws.dir, out)
}

// opFlags are the flags the engine operations share.
type opFlags struct {
	yes          bool
	skipPreview  bool
	json         bool
	diff         bool
	parallel     int
	parallelSet  func() bool // whether -p was given; nil if the command has no -p
	targets      []string
	excludes     []string
	replaces     []string // --replace, resolved to URNs by resolveReplaces
	genConfigOut string   // preview --generate-config-out FILE
	vars         []string // -var NAME=VALUE
	varFiles     []string // -var-file FILE
}

// addVars adds -var and -var-file, which set a Terraform configuration's
// input variables.
func (f *opFlags) addVars(c *cobra.Command) {
	c.Flags().StringArrayVar(&f.vars, "var", nil, "set a Terraform input variable: `NAME=VALUE` (repeatable)")
	c.Flags().StringArrayVar(&f.varFiles, "var-file", nil, "read Terraform input variables from a .tfvars `FILE` (repeatable)")
}

func (f *opFlags) addTargets(c *cobra.Command) {
	c.Flags().StringArrayVarP(&f.targets, "target", "t", nil, "limit the operation to this resource `URN` (or, in a Terraform configuration, address) (repeatable)")
	c.Flags().StringArrayVar(&f.excludes, "exclude", nil, "leave this resource `URN` (or, in a Terraform configuration, address) alone (repeatable)")
}

// addReplace adds --replace, which forces the replacement of resources.
func (f *opFlags) addReplace(c *cobra.Command) {
	c.Flags().StringArrayVar(&f.replaces, "replace", nil, "replace this resource (`ADDRESS` or URN) even if nothing changed (repeatable)")
}

func (f *opFlags) addCommon(c *cobra.Command, verb string) {
	c.Flags().BoolVarP(&f.yes, "yes", "y", false, verb+" without asking for confirmation")
	c.Flags().BoolVar(&f.skipPreview, "skip-preview", false, "do not preview first")
	c.Flags().BoolVar(&f.json, "json", false, "write newline-delimited JSON events")
	c.Flags().BoolVar(&f.diff, "diff", false, "show every changed property")
	c.Flags().IntVarP(&f.parallel, "parallel", "p", 0, "run at most `N` provider steps at once, 1 or more (default 16 per CPU)")
	f.parallelSet = func() bool { return c.Flags().Changed("parallel") }
}

// urns parses --target and --exclude values.
func urns(flag string, values []string) ([]resource.URN, error) {
	out := make([]resource.URN, 0, len(values))
	for _, v := range values {
		u, err := resource.ParseURN(v)
		if err != nil {
			return nil, display.Errorf("Invalid URN", "--%s %q is not a URN: %v. Copy the URN from `plinth state ls`.", flag, v, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// options builds the engine options for an operation recording into
// journal (nil for a preview).
func (r *stackRun) options(journal engine.Journal, hard context.Context, f opFlags) (engine.Options, error) {
	targets, err := urns("target", f.targets)
	if err != nil {
		return engine.Options{}, err
	}
	excludes, err := urns("exclude", f.excludes)
	if err != nil {
		return engine.Options{}, err
	}
	replaces, err := urns("replace", f.replaces)
	if err != nil {
		return engine.Options{}, err
	}
	r.targeted = len(targets) > 0
	if f.parallel < 0 || f.parallel == 0 && f.parallelSet != nil && f.parallelSet() {
		return engine.Options{}, display.Errorf("Invalid parallelism", "--parallel %d is not allowed: give the number of provider steps to run at once, 1 or more (1 runs them one at a time).", f.parallel)
	}
	if journal != nil && r.crypter != nil && r.crypter.Fresh() {
		journal = keyedJournal{Journal: journal, c: r.crypter}
	}
	return engine.Options{
		Stack: r.ws.stack, Project: r.projectName(), Providers: r.source, Journal: journal,
		Parallel: f.parallel, Targets: targets, Excludes: excludes, Replace: replaces,
		Events: r.a.events(r.view), Now: r.a.env.now, HardCancel: hard,
		DefaultProviderConfig: providerConfig(r.ws.dir, r.defaultProviderConfig()),
		Provisioners:          provisionerSource(r.ws.dir),
		ServeMonitor:          r.serveMonitor,
		OneDefaultProvider:    r.pulumi == nil && r.project.Terraform(),
	}, nil
}

// serveMonitor starts the resource monitor a component provider registers
// a component's children through, for the duration of the operation.
func (r *stackRun) serveMonitor(m engine.Monitor) (string, func(), error) {
	if r.pulumi != nil {
		return r.pulumi.ServeMonitor(m) // the program's own, whose transforms apply
	}
	srv, err := monitor.Start(m, monitor.Config{Stack: r.ws.stack, Project: r.projectName()})
	if err != nil {
		return "", nil, err
	}
	return srv.Addr(), srv.Close, nil
}

// projectName is the program's project name.
func (r *stackRun) projectName() string {
	if r.pulumi != nil {
		return r.pulumi.Project.Name
	}
	return r.project.Name()
}

// defaultProviderConfig is the config of the default providers.
func (r *stackRun) defaultProviderConfig() func(pkg string) resource.Object {
	if r.pulumi != nil {
		return pulumiProviderConfig(r.pulumi.Project.Name, r.config)
	}
	return r.project.DefaultProviderConfig(r.config)
}

// events forwards engine events to a view.
func (a *app) events(v display.View) func(engine.Event) {
	return func(e engine.Event) {
		if a.env.Rewrite != nil {
			a.env.Rewrite(&e)
		}
		v.Event(e)
	}
}

// phase runs one engine operation between the view's Begin and End. An
// error comes back already shown.
func (r *stackRun) phase(op display.Operation, outputs bool, run func() (*engine.Result, error)) (*engine.Result, error) {
	return r.phaseShowing(op, display.Outcome{ShowOutputs: outputs}, run)
}

// phaseShowing is phase with the outcome's display options (outputs,
// output changes) given by show.
func (r *stackRun) phaseShowing(op display.Operation, show display.Outcome, run func() (*engine.Result, error)) (*engine.Result, error) {
	op.Stack, op.Project, op.Targeted = r.ws.stack, r.projectName(), r.targeted
	r.view.Begin(op)
	res, err := run()
	err = r.summarise(op, r.keyError(err))
	show.Result, show.Err = res, err
	r.view.End(show)
	if err != nil {
		return res, reported{err}
	}
	return res, nil
}

// keyError is an operation's error, or the stack's key's alone when
// the key turned out wrong (a new stack whose secrets configuration
// another command stored first, with another passphrase): then each
// record the operation tried failed with that one error, which is said
// once.
func (r *stackRun) keyError(err error) error {
	if !errors.Is(err, secrets.ErrWrongPassphrase) {
		return err
	}
	if kerr := verifyKey(r.crypter); kerr != nil {
		return kerr
	}
	return err
}

// summarise names an operation's error for people, if it is of no kind
// the display knows: an interruption, else the operation that failed.
func (r *stackRun) summarise(op display.Operation, err error) error {
	if r.a.interrupted.Load() {
		return display.Summarise("Interrupted", err)
	}
	what := strings.ToUpper(op.Verb[:1]) + op.Verb[1:]
	if op.Preview {
		what = "Preview of " + op.Verb
	}
	return display.Summarise(what+" failed", err)
}

// newStack says whether base records nothing, no resource and no
// output: a Pulumi update then creates the stack's pulumi:pulumi:Stack
// resource, whose line the Pulumi style opens with.
func newStack(base *state.Snapshot) bool {
	return base == nil || len(base.Resources) == 0 && len(base.Outputs) == 0
}

// previewOutcome shows a preview's changes to the stack outputs recorded
// in base.
func previewOutcome(base *state.Snapshot) display.Outcome {
	o := display.Outcome{DiffOutputs: true}
	if base != nil {
		o.PriorOutputs, o.PriorResources = base.Outputs, len(base.Resources) > 0
	}
	return o
}

// changes reports whether a preview found anything to do: a step, or,
// when prior is the recorded state, a stack output to change.
func changes(res *engine.Result, prior *state.Snapshot) bool {
	if res.HasChanges() {
		return true
	}
	return prior != nil && len(display.OutputChanges(prior.Outputs, res.Outputs)) > 0
}

// openSession locks the stack for a change and says if it recovered an
// interrupted run.
func (r *stackRun) openSession(ctx context.Context, command string) (*state.Session, error) {
	s, err := r.ws.openRecorded(ctx, r.crypter, command, historyKinds[command])
	if err != nil {
		return nil, err
	}
	r.a.scrub.LearnSnapshot(s.Base())
	if n := s.Recovered(); n > 0 {
		r.view.Notice(fmt.Sprintf("Recovered %d journal entries of an interrupted run of stack %s.", n, r.ws.stack))
	}
	return s, nil
}

// historyKinds names the operations the update history records, by
// the command that runs them.
var historyKinds = map[string]string{
	"plinth up": "update", "plinth refresh": "refresh", "plinth destroy": "destroy", "plinth import": "import",
}

// finishSession records how the operation ended in the stack's history,
// then closes the session.
func (r *stackRun) finishSession(s *state.Session, res *engine.Result, err error) error {
	result := state.ResultSucceeded
	switch {
	case err != nil && r.a.interrupted.Load():
		result = state.ResultInterrupted
	case err != nil:
		result = state.ResultFailed
	}
	steps := map[string]int{}
	if res != nil {
		for op, n := range res.Counts {
			steps[string(op)] = n
		}
	}
	s.Finish(result, steps)
	return closeSession(s)
}

// closeSession saves the state and unlocks, whatever the operation did:
// it must run even when the operation was cancelled.
func closeSession(s *state.Session) error {
	return s.Close(context.Background())
}

// newView picks the view: JSON when asked, live on a terminal outside
// CI, plain otherwise.
func (a *app) newView(jsonOut, diff bool) display.View {
	return display.New(a.viewOptions(jsonOut, diff))
}

// viewOptions are the options of the view newView picks.
func (a *app) viewOptions(jsonOut, diff bool) display.Options {
	mode := display.Plain
	switch {
	case jsonOut:
		mode = display.JSON
	case a.env.StdoutTerminal && a.env.getenv("CI") == "":
		mode = display.Live
	}
	return display.Options{
		Out: a.env.Stdout, ErrOut: a.env.Stderr, Mode: mode, Style: displayStyle(a.g.dir),
		Colour: a.colourFor(a.env.StdoutTerminal), Verbose: a.g.verbose, Diff: diff,
		Now: a.env.now, Width: a.env.Width, Scrubber: a.scrub,
	}
}

// needConfirmation refuses, before anything runs, a change that would
// have to be confirmed where no one can answer.
func (a *app) needConfirmation(command string, f opFlags) error {
	if f.yes {
		return nil
	}
	if f.json {
		return display.Errorf("Confirmation needed", "plinth %s --json cannot ask for confirmation. Add --yes to go ahead without asking.", command)
	}
	if !a.env.StdinTerminal {
		return display.Errorf("Confirmation needed", "plinth %s changes real resources and asks for confirmation first, but standard input is not a terminal. Add --yes to go ahead without asking, or run `plinth preview` to see what would change.", command)
	}
	return nil
}

// errDeclined is returned when people answer no.
var errDeclined = display.Errorf("Cancelled", "Nothing was changed.")

// confirm asks a yes/no question on the terminal; anything but yes is
// no, and so is an interrupt.
func (a *app) confirm(ctx context.Context, question string) error {
	fmt.Fprintf(a.env.Stdout, "%s [yes/no] ", question)
	answer := make(chan string, 1)
	go func() {
		line, err := bufio.NewReader(a.env.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			line = ""
		}
		answer <- strings.ToLower(strings.TrimSpace(line))
	}()
	select {
	case s := <-answer:
		if s == "yes" || s == "y" {
			return nil
		}
	case <-ctx.Done():
		fmt.Fprintln(a.env.Stdout)
	}
	return errDeclined
}

// interruptible returns a context cancelled by the first Ctrl-C (stop
// scheduling, finish the steps in flight, save) and one cancelled by the
// second (cancel the provider calls in flight too), and a function that
// stops listening.
func (a *app) interruptible(ctx context.Context, v display.View) (soft, hard context.Context, stop func()) {
	soft, cancelSoft := context.WithCancel(ctx)
	hard, cancelHard := context.WithCancel(context.Background())
	if a.env.Interrupts == nil {
		return soft, hard, func() { cancelSoft(); cancelHard() }
	}
	signals, stopSignals := a.env.Interrupts()
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-signals:
			}
			if n == 1 {
				a.interrupted.Store(true)
				v.Notice("Interrupted: no new steps will start; the steps in flight finish and are saved. Press Ctrl-C again to stop them too.")
				cancelSoft()
				continue
			}
			v.Notice("Interrupted again: cancelling the steps in flight; plinth exits once the state is saved. A third Ctrl-C kills it at once.")
			cancelHard()
			// From now on Ctrl-C has its default effect. Killed, plinth
			// still loses nothing: the journal holds every step begun.
			stopSignals()
			return
		}
	}()
	return soft, hard, func() { close(done); stopSignals(); cancelSoft(); cancelHard() }
}
