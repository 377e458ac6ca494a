package display

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestPulumiStackCounted: the Resources block counts the stack resource
// as pulumi v3.259.0 did for a two-resource YAML program: created by a
// stack's first update ("+ 3 to create"), unchanged after ("2
// unchanged" with one replaced), read by a refresh ("3 unchanged"),
// deleted by a destroy ("- 3 deleted"), and not counted by a refresh or
// destroy of a stack that records nothing. Reads are left out of an
// update's counts, as pulumi leaves them out (before, plinth showed "> 1
// read" where pulumi shows nothing: go-read's recording).
func TestPulumiStackCounted(t *testing.T) {
	outputs := resource.Object{"a": resource.NewString("hello")}
	tests := map[string]struct {
		verb   string
		counts map[engine.StepOp]int
		prior  resource.Object
		// resources: the stack recorded resources before
		resources bool
		want      map[engine.StepOp]int
	}{
		"first update":           {verb: "update", counts: map[engine.StepOp]int{engine.OpCreate: 2}, want: map[engine.StepOp]int{engine.OpCreate: 3}},
		"first update, nothing":  {verb: "update", counts: map[engine.StepOp]int{}, want: map[engine.StepOp]int{engine.OpCreate: 1}},
		"outputs only, recorded": {verb: "update", counts: map[engine.StepOp]int{}, prior: outputs, want: map[engine.StepOp]int{engine.OpSame: 1}},
		"a replacement":          {verb: "update", counts: map[engine.StepOp]int{engine.OpReplace: 1, engine.OpSame: 1}, want: map[engine.StepOp]int{engine.OpReplace: 1, engine.OpSame: 2}},
		"all deleted by update":  {verb: "update", counts: map[engine.StepOp]int{engine.OpDelete: 2}, want: map[engine.StepOp]int{engine.OpDelete: 2, engine.OpSame: 1}},
		"refresh":                {verb: "refresh", counts: map[engine.StepOp]int{engine.OpSame: 2}, want: map[engine.StepOp]int{engine.OpSame: 3}},
		"refresh of nothing":     {verb: "refresh", counts: map[engine.StepOp]int{}, want: map[engine.StepOp]int{}},
		"destroy":                {verb: "destroy", counts: map[engine.StepOp]int{engine.OpDelete: 2}, want: map[engine.StepOp]int{engine.OpDelete: 3}},
		"destroy of nothing":     {verb: "destroy", counts: map[engine.StepOp]int{}, want: map[engine.StepOp]int{}},
		"destroy, outputs only":  {verb: "destroy", counts: map[engine.StepOp]int{}, prior: outputs, want: map[engine.StepOp]int{engine.OpDelete: 1}},
		// pulumi/pulumi's protect_resources step 3: the program drops a
		// protected resource, whose delete is refused; the stack was
		// there before, so pulumi counts it unchanged, not created.
		"recorded resources, no step": {verb: "update", counts: map[engine.StepOp]int{}, resources: true, want: map[engine.StepOp]int{engine.OpSame: 1}},
		"reads left out":              {verb: "update", counts: map[engine.StepOp]int{engine.OpCreate: 2, engine.OpRead: 1}, want: map[engine.StepOp]int{engine.OpCreate: 3}},
		"reads only, recorded":        {verb: "update", counts: map[engine.StepOp]int{engine.OpRead: 1, engine.OpSame: 1}, prior: outputs, want: map[engine.StepOp]int{engine.OpSame: 2}},
		"import, not counted":         {verb: "import", counts: map[engine.StepOp]int{engine.OpImport: 1}, want: map[engine.StepOp]int{engine.OpImport: 1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, withStack(tc.verb, tc.counts, len(tc.prior) > 0 || tc.resources)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPulumiStackLines: the lines pulumi wrote for the stack resource
// when its output was not a terminal: at the start of an update of a new
// stack, and at the end of each operation.
func TestPulumiStackLines(t *testing.T) {
	tests := map[string]struct {
		op     Operation
		counts map[engine.StepOp]int
		want   []string
	}{
		"first preview": {op: newStack(puPreview), counts: map[engine.StepOp]int{engine.OpCreate: 1}, want: []string{
			" +  pulumi:pulumi:Stack p-dev create", " +  pulumi:pulumi:Stack p-dev create"}},
		"first update": {op: newStack(puStack), counts: map[engine.StepOp]int{engine.OpCreate: 1}, want: []string{
			" +  pulumi:pulumi:Stack p-dev creating (0s)", " +  pulumi:pulumi:Stack p-dev created (0s)"}},
		"no changes": {op: puPreview, counts: map[engine.StepOp]int{engine.OpSame: 1}, want: []string{"    pulumi:pulumi:Stack p-dev"}},
		"destroy preview": {op: Operation{Verb: "destroy", Preview: true, Stack: "dev", Project: "p"}, counts: map[engine.StepOp]int{engine.OpDelete: 1}, want: []string{
			" -  pulumi:pulumi:Stack p-dev delete", " -  pulumi:pulumi:Stack p-dev delete", "    pulumi:pulumi:Stack p-dev"}},
		"destroy": {op: Operation{Verb: "destroy", Stack: "dev", Project: "p"}, counts: map[engine.StepOp]int{engine.OpDelete: 1}, want: []string{
			" -  pulumi:pulumi:Stack p-dev deleting (0s)", " -  pulumi:pulumi:Stack p-dev deleted (0s)", "    pulumi:pulumi:Stack p-dev"}},
		"refresh of nothing": {op: Operation{Verb: "refresh", Stack: "dev", Project: "p"}, counts: map[engine.StepOp]int{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := runPulumiView(Options{}, tc.op, nil, Outcome{Result: &engine.Result{Counts: tc.counts}})
			if tc.op.NewStack && !strings.HasPrefix(strings.SplitN(got, "\n", 3)[2], tc.want[0]+"\n") {
				t.Errorf("the first line after the title is not the stack's:\n%s", got)
			}
			var lines []string
			for _, l := range strings.Split(got, "\n") {
				if strings.Contains(l, "pulumi:pulumi:Stack") {
					lines = append(lines, l)
				}
			}
			if diff := cmp.Diff(tc.want, lines); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, got)
			}
		})
	}
}

// TestPulumiCountsRetained: a retainOnDelete resource the program dropped
// is a discard in plinth's counts and a delete in pulumi's summary
// (e2e/pulumicorpus/testdata/yaml-retain, compared live with pulumi
// v3.259.0: "- 1 deleted"); other discards stay discards.
func TestPulumiCountsRetained(t *testing.T) {
	tests := map[string]struct {
		result engine.Result
		want   map[engine.StepOp]int
	}{
		"retained by an update": {
			result: engine.Result{Counts: map[engine.StepOp]int{engine.OpDiscard: 1, engine.OpSame: 1}, Retained: 1},
			want:   map[engine.StepOp]int{engine.OpDelete: 1, engine.OpSame: 2},
		},
		"retained and a forgotten read": {
			result: engine.Result{Counts: map[engine.StepOp]int{engine.OpDiscard: 2, engine.OpDelete: 1}, Retained: 1},
			want:   map[engine.StepOp]int{engine.OpDelete: 2, engine.OpDiscard: 1, engine.OpSame: 1},
		},
		"no retained": {
			result: engine.Result{Counts: map[engine.StepOp]int{engine.OpDiscard: 1}},
			want:   map[engine.StepOp]int{engine.OpDiscard: 1, engine.OpSame: 1},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, pulumiCounts("update", &tc.result, false)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// newStack marks op an update of a stack that records nothing yet.
func newStack(op Operation) Operation {
	op.NewStack = true
	return op
}
