package display

import (
	"sort"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// maxInFlightLines bounds how many steps in flight the live view lists.
const maxInFlightLines = 20

// LiveModel is what the live view draws, apart from any terminal: the
// steps in flight with their start times, and how many steps are done.
// Apply feeds it an event and returns the lines that scroll up above the
// live block for good; Frame returns the block itself. It is not safe
// for concurrent use.
type LiveModel struct {
	f        formatter
	op       Operation
	start    time.Time
	inflight map[flightKey]flight
	done     int
	started  int // steps started so far: orders the block
}

type flightKey struct {
	urn resource.URN
	op  engine.StepOp
}

type flight struct {
	e       engine.Event
	started time.Time
	seq     int
}

// NewLiveModel starts a model of op at the time start.
func NewLiveModel(opts Options, op Operation, start time.Time) *LiveModel {
	return &LiveModel{
		f:  formatter{painter: painter{on: opts.Colour}, verbose: opts.Verbose, diff: opts.Diff},
		op: op, start: start, inflight: map[flightKey]flight{},
	}
}

// Apply records an event that happened at now and returns the lines it
// adds above the live block.
func (m *LiveModel) Apply(e engine.Event, now time.Time) []string {
	if hidden(e, m.f.verbose) {
		return nil
	}
	k := flightKey{e.URN, e.Op}
	switch e.Kind {
	case engine.EventStepStart:
		m.started++
		m.inflight[k] = flight{e: e, started: now, seq: m.started}
		return nil
	case engine.EventStepDone:
		delete(m.inflight, k)
		if e.Op != engine.OpDeleteReplaced {
			m.done++
		}
	}
	return eventLines(m.f, e)
}

// Frame returns the live block at now: one line per step in flight, with
// its elapsed time, oldest first, then a status line with done/total.
func (m *LiveModel) Frame(now time.Time) []string {
	fs := make([]flight, 0, len(m.inflight))
	for _, f := range m.inflight {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].seq < fs[j].seq })
	var lines []string
	for i, f := range fs {
		if i == maxInFlightLines {
			lines = append(lines, "  … and "+itoa(len(fs)-i)+" more")
			break
		}
		lines = append(lines, m.f.startLine(f.e)+m.f.paint(colourDim, " "+Duration(now.Sub(f.started))))
	}
	return append(lines, m.status(len(fs), now))
}

// status is the block's last line: "3/5 done, 2 in progress, 4.1s".
func (m *LiveModel) status(inFlight int, now time.Time) string {
	total := max(m.op.Expected, m.done+inFlight)
	parts := []string{itoa(m.done) + "/" + itoa(total) + " done"}
	if inFlight > 0 {
		parts = append(parts, itoa(inFlight)+" in progress")
	}
	parts = append(parts, Duration(now.Sub(m.start)))
	return m.f.paint(colourDim, strings.Join(parts, ", "))
}

// Elapsed returns the time since the operation began.
func (m *LiveModel) Elapsed(now time.Time) time.Duration { return now.Sub(m.start) }
