package display

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestPulumiOutputsShownAsPulumi: the Outputs block of an update renders
// values as pulumi v3.259.0 rendered pulumi-yaml's l1-output-map program:
// strings quoted by Go's rules ("a&b" kept, not JSON's "a\u0026b";
// control characters as \x1b, \a), keys starting "__" left out of an
// object (yet counted in its padding), outputs that are null, "", [] or
// {} left out (their keys still counted in the padding), a string holding
// a JSON object or array shown decoded after "(json) " (pulumi-yaml's
// l1-builtin-to-json), and keys padded by characters to a width in bytes.
func TestPulumiOutputsShownAsPulumi(t *testing.T) {
	tests := map[string]struct {
		outputs resource.Object
		want    []string
	}{
		"html and control characters": {
			outputs: resource.Object{"url": resource.NewString("https://x.test/?a=1&b=<2>"), "ctl": resource.NewString("esc\x1b bell\a nul\x00 tab\t")},
			want:    []string{"Outputs:", `    ctl: "esc\x1b bell\a nul\x00 tab\t"`, `    url: "https://x.test/?a=1&b=<2>"`},
		},
		"internal keys hidden, counted in the padding": {
			outputs: resource.Object{"m": resource.NewObject(resource.Object{"__provider": resource.NewString("p"), "ab": resource.NewNumber(1)})},
			want:    []string{"Outputs:", "    m: {", "        ab        : 1", "    }"},
		},
		"empty outputs left out": {
			outputs: resource.Object{
				"none": resource.Null(), "blank": resource.NewString(""), "list": resource.NewArray(),
				"obj": resource.NewObject(resource.Object{}), "kept": resource.NewNumber(2),
				"__internal": resource.NewString("x"),
			},
			want: []string{"Outputs:", "    kept      : 2"}, // padded to "__internal", as pulumi pads to every key
		},
		"a JSON string shown decoded": {
			outputs: resource.Object{
				"obj": resource.NewString(`{"key":"value","count":1}`), "arr": resource.NewString(` ["x", "y"] `),
				"num": resource.NewString("42"), "bad": resource.NewString("{not json"),
			},
			want: []string{
				"Outputs:", `    arr: (json) [`, `        [0]: "x"`, `        [1]: "y"`, "    ]",
				`    bad: "{not json"`, `    num: "42"`,
				`    obj: (json) {`, `        count: 1`, `        key  : "value"`, "    }",
			},
		},
		"padding by characters": {
			outputs: resource.Object{"é": resource.NewNumber(1), "ab": resource.NewNumber(2)},
			want:    []string{"Outputs:", "    ab: 2", "    é : 1"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := pulumiOutputLines(painter{}, nil, tc.outputs, nil, false)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPulumiDiffInfoHidesInternalKeys: a resource whose diff touches the
// dynamic provider's __provider input shows "[diff: ~state]", as pulumi
// showed for pulumi/pulumi's delete_before_create program; plinth showed
// "[diff: +__provider~state]". A diff of internal keys alone shows none.
func TestPulumiDiffInfoHidesInternalKeys(t *testing.T) {
	tests := map[string]struct {
		cs   []change
		want string
	}{
		"with a real change": {cs: []change{{path: "__provider", kind: resource.DiffAdd}, {path: "state", kind: resource.DiffUpdate}}, want: "[diff: ~state]"},
		"internal only":      {cs: []change{{path: "__provider", kind: resource.DiffUpdate}}, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := pulumiDiffInfo(tc.cs); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPulumiDestroyHidesReadDiscards: destroying pulumi/pulumi's
// get_created program (a resource, and a get of it) showed under pulumi
// v3.259.0 the delete of the resource and of the stack, "- 2 deleted",
// and nothing for the read; plinth showed "b discarded" and counted
// "- 1 discarded, 3 changes".
func TestPulumiDestroyHidesReadDiscards(t *testing.T) {
	made := puRes("pulumi-nodejs:dynamic:Resource", "a", "0", "", obj("state", 1))
	read := puRes("pulumi-nodejs:dynamic:Resource", "b", "0", "", obj("state", 1))
	read.External = true
	events := []engine.Event{
		puEvent(engine.EventStepStart, engine.OpDelete, made, nil, false),
		puEvent(engine.EventStepStart, engine.OpDiscard, read, nil, false),
		puEvent(engine.EventStepDone, engine.OpDiscard, read, nil, false),
		puEvent(engine.EventStepDone, engine.OpDelete, made, nil, false),
	}
	outcome := Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpDelete: 1, engine.OpDiscard: 1}}}
	out := runPulumiView(Options{}, Operation{Verb: "destroy", Stack: "dev", Project: "p"}, events, outcome)
	if strings.Contains(out, " b ") || strings.Contains(out, "discard") {
		t.Errorf("the destroy shows the read b:\n%s", out)
	}
	if !strings.Contains(out, "Resources:\n    - 2 deleted\n\n") {
		t.Errorf("Resources block, want \"- 2 deleted\" alone:\n%s", out)
	}
}
