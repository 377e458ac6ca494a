package display

import (
	"io"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Mode picks a view.
type Mode uint8

// The views.
const (
	// Plain writes one line per event: for logs, pipes and CI.
	Plain Mode = iota
	// Live redraws the steps in flight on a terminal.
	Live
	// JSON writes one JSON object per line.
	JSON
)

// Options configure a view. They are not modified after New.
type Options struct {
	Out io.Writer
	// ErrOut receives the diagnostics of an operation's failure; Out if
	// nil.
	ErrOut io.Writer
	Mode   Mode
	// Style is how the plain and live views word what they show:
	// plinth's lines or terraform's plan (the program format picks it).
	Style Style
	// Colour turns on ANSI colours (plain and live views).
	Colour bool
	// Verbose shows unchanged resources, default providers and stack
	// traces.
	Verbose bool
	// Diff shows every changed property on its own line, instead of a
	// one-line summary.
	Diff bool
	// Now is the clock for elapsed times and timestamps; time.Now if nil.
	Now func() time.Time
	// Width is the terminal's width in columns, 0 if unknown; the live
	// view cuts its lines to fit.
	Width int
	// Scrubber, if set, removes every secret it knows from what the view
	// writes, and learns the secrets of every event it is shown first.
	Scrubber *Scrubber
	// Digest, in JSON mode with StylePulumi, writes a preview as one
	// document shaped like `pulumi preview --json` (PreviewDigest)
	// instead of a stream of events.
	Digest bool
	// Tick is how often the live view redraws elapsed times; 0 means
	// 200ms, a negative value never (tests draw by hand).
	Tick time.Duration
}

func (o Options) errOut() io.Writer {
	if o.ErrOut != nil {
		return o.ErrOut
	}
	return o.Out
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Operation describes what a view is about to show.
type Operation struct {
	// Verb is update, refresh, destroy or import.
	Verb    string
	Preview bool
	Stack   string
	Project string
	// Expected is how many steps a preview found, for the live view's
	// done/total; 0 if unknown.
	Expected int
	// Prelude marks a refresh that opens another operation of the same
	// command (`up --refresh`, `preview --refresh`): the Terraform style
	// shows it as terraform's plan shows its refresh, with no summary of
	// its own, and a view that writes one document per command keeps its
	// steps for the next, as `pulumi preview --refresh --json` writes one
	// document.
	Prelude bool
	// NewStack says the stack records nothing yet (no resource, no
	// output): a Pulumi update creates its pulumi:pulumi:Stack resource,
	// and pulumi's output opens with that resource's line.
	NewStack bool
	// Targeted says --target limited the operation: the Terraform style
	// ends it with terraform's warning that the plan or the apply may be
	// incomplete.
	Targeted bool
}

// Outcome is how an operation ended.
type Outcome struct {
	Result *engine.Result
	Err    error
	// ShowOutputs prints the stack outputs before the summary.
	ShowOutputs bool
	// DiffOutputs shows how a preview changes the stack outputs: those in
	// Result against PriorOutputs, the recorded ones.
	DiffOutputs bool
	// PriorOutputs are the stack outputs recorded before the operation.
	// The Pulumi style marks the outputs an update changed with them,
	// as pulumi does; the other styles read them only with DiffOutputs.
	PriorOutputs resource.Object
	// PriorResources says the stack recorded resources before the
	// operation: the Pulumi style then counts its stack resource as
	// pulumi does for a stack it made before (unchanged by an update,
	// deleted by a destroy), even where no step touched them (a
	// --target elsewhere, a refused delete of a protected resource).
	PriorResources bool
}

// recorded says the stack recorded resources or outputs before the
// operation, so that pulumi has its stack resource already.
func (o Outcome) recorded() bool { return o.PriorResources || len(o.PriorOutputs) > 0 }

// outputChanges are the output changes the outcome shows, nil if it
// shows none.
func (o Outcome) outputChanges() map[string]resource.DiffKind {
	if !o.DiffOutputs || o.Result == nil {
		return nil
	}
	return OutputChanges(o.PriorOutputs, o.Result.Outputs)
}

// View shows one operation. Event and Diagnostic may be called from many
// goroutines at once.
type View interface {
	Begin(Operation)
	Event(engine.Event)
	Diagnostic(Diagnostic)
	// Notice tells people something about the run itself, such as that
	// an interrupt was received.
	Notice(string)
	End(Outcome)
}

// New returns the view the options ask for.
func New(opts Options) View {
	if opts.Scrubber != nil {
		return scrubbedView{View: newView(opts), s: opts.Scrubber}
	}
	return newView(opts)
}

func newView(opts Options) View {
	if opts.Mode == JSON {
		// JSON is scrubbed field by field, so that it stays JSON whatever
		// a secret looks like; its ErrOut is text.
		opts.ErrOut = opts.Scrubber.Writer(opts.errOut())
		if opts.Digest && opts.Style == StylePulumi {
			return newDigestView(opts)
		}
		return newJSONView(opts)
	}
	opts.Out, opts.ErrOut = opts.Scrubber.Writer(opts.Out), opts.Scrubber.Writer(opts.errOut())
	if opts.Style == StyleTerraform {
		// terraform writes its plan and its progress line by line, on a
		// terminal too.
		return newTerraformView(opts)
	}
	if opts.Style == StylePulumi {
		return newPulumiView(opts)
	}
	if opts.Mode == Live {
		return newLiveView(opts)
	}
	return newPlainView(opts)
}

// scrubbedView learns the secrets of each event before the view shows
// it, so that an error a step reports is scrubbed of the secrets of that
// very step.
type scrubbedView struct {
	View
	s *Scrubber
}

func (v scrubbedView) Event(e engine.Event) {
	v.s.LearnEvent(e)
	v.View.Event(e)
}

func (v scrubbedView) End(o Outcome) {
	if o.Result != nil {
		v.s.LearnObject(o.Result.Outputs)
	}
	v.View.End(o)
}

// title is the line that opens an operation's output.
func (op Operation) title() string {
	where := "stack " + op.Stack
	if op.Project != "" {
		where += " (project " + op.Project + ")"
	}
	if op.Preview {
		return "Previewing " + op.Verb + " of " + where
	}
	doing := map[string]string{"update": "Updating", "refresh": "Refreshing", "destroy": "Destroying", "import": "Importing into"}[op.Verb]
	if doing == "" {
		doing = strings.ToUpper(op.Verb[:1]) + op.Verb[1:] + " of"
	}
	return doing + " " + where
}

// hidden reports whether an event is plumbing people do not ask to see:
// the engine's default provider resources, unless they failed.
func hidden(e engine.Event, verbose bool) bool {
	if verbose || e.Err != nil {
		return false
	}
	return state.IsProviderType(e.Type) && isDefaultName(e.URN.Name())
}

func isDefaultName(name string) bool {
	return name == "default" || strings.HasPrefix(name, "default_")
}

// total counts the resources an operation touched.
func total(counts map[engine.StepOp]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}
