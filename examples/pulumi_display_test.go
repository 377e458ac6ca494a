package examples_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// displayProgram is a plain JavaScript program with a pet, a second pet
// that is its child, and outputs of each kind pulumi lays out its own
// way: a string, a number, a nested object and a secret.
const displayProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const cfg = new pulumi.Config();
if (cfg.getBoolean("fail")) { throw new Error("the program was told to fail"); }
const a = new plinth.Pet("a", { length: 2 });
const b = new plinth.Pet("b", { length: cfg.getNumber("len") || 3 }, { parent: a });
exports.name = a.name;
exports.count = 2;
exports.obj = { list: [1, "two"], nested: { on: true } };
exports.hidden = pulumi.secret("s3cr3t");
`

// TestPulumiProgramDisplay runs a Pulumi program under plinth and checks
// that what it prints reads as pulumi's would for the same program: the
// title, the step lines, the Outputs, Resources and Duration blocks,
// --diff's property blocks, an error naming plinth and the program's
// line, and preview --json as one document shaped like pulumi's.
func TestPulumiProgramDisplay(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), displayProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "d", "PLINTH_HOME": t.TempDir()}}
	run := func(args ...string) clitest.Result { return clitest.MustRun(t, dir, opts, args...) }

	d := previewDigest(t, run("preview", "--json").Stdout)
	var ops []string
	for _, s := range d.Steps {
		ops = append(ops, s.Op+" "+s.NewState.Type+" "+s.URN[strings.LastIndex(s.URN, "::")+2:])
	}
	if diff := cmp.Diff([]string{"create pulumi:pulumi:Stack jsprog-dev", "create plinth:random:Pet a", "create plinth:random:Pet b"}, ops); diff != "" {
		t.Errorf("preview --json steps (-want +got):\n%s", diff)
	}
	if b := d.Steps[2].NewState; b.Parent != d.Steps[1].URN || b.Inputs["length"] != float64(3) {
		t.Errorf("b's new state: parent %q (want %q), inputs %v", b.Parent, d.Steps[1].URN, b.Inputs)
	}
	if diff := cmp.Diff(map[string]int{"create": 3}, d.ChangeSummary); diff != "" {
		t.Errorf("changeSummary (-want +got):\n%s", diff)
	}
	if d.Outputs["hidden"] != "[secret]" || d.Outputs["name"] != "04da6b54-80e4-46f7-96ec-b56ff0331ba9" {
		t.Errorf("outputs: the secret is not [secret] or the unknown name not pulumi's unknown: %v", d.Outputs)
	}

	up := run("up", "--yes").Stdout
	hasLines(t, "up", up, "Updating (dev):", "Outputs:", "    count : 2", "    hidden: [secret]", "    obj   : {",
		"        list  : [", `            [1]: "two"`, "            on: true", "Resources:", "    + 3 created", "Duration: ")
	if diff := cmp.Diff([]string{
		"+  pulumi:pulumi:Stack jsprog-dev creating",
		"+  plinth:random:Pet a creating", "+  plinth:random:Pet a created",
		"+  plinth:random:Pet b creating", "+  plinth:random:Pet b created",
		"+  pulumi:pulumi:Stack jsprog-dev created",
	}, clitest.PulumiStepLines(up[strings.Index(up, "Updating (dev):"):])); diff != "" {
		t.Errorf("up's step lines (-want +got):\n%s\n%s", diff, up)
	}

	run("config", "set", "len", "4")
	preview := run("preview").Stdout
	hasLines(t, "preview", preview, "Previewing update (dev):", " +- plinth:random:Pet b replace [diff: ~length]",
		"Resources:", "    +-1 to replace", "    2 unchanged")
	hasLines(t, "preview --diff", run("preview", "--diff").Stdout,
		"  pulumi:pulumi:Stack: (same)", "        +-plinth:random:Pet: (replace)", "          ~ length: 3 => 4")

	run("config", "set", "fail", "true")
	r := clitest.Run(t, dir, opts, "preview")
	hasLines(t, "a failed preview", r.Output(), "Diagnostics:", "  pulumi:pulumi:Stack (jsprog-dev):",
		"    error: plinth: Preview of update failed", "        Error: the program was told to fail")
	if r.Code == 0 || !strings.Contains(r.Output(), "index.js:5:") {
		t.Errorf("a failed preview: exit %d, want a failure naming index.js:5:\n%s", r.Code, r.Output())
	}
}

// previewDigest parses plinth preview --json of a Pulumi program: one
// document, with the fields of pulumi preview --json a tool reads.
func previewDigest(t *testing.T, out string) digest {
	t.Helper()
	var d digest
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&d); err != nil || dec.More() {
		t.Fatalf("preview --json is not one JSON document (%v):\n%s", err, out)
	}
	if d.Steps == nil || d.ChangeSummary == nil || d.Duration <= 0 {
		t.Errorf("preview --json lacks steps, changeSummary or duration:\n%s", out)
	}
	return d
}

// digest is what the test reads of pulumi preview --json's document,
// declared here as a tool reading it would.
type digest struct {
	Steps []struct {
		Op       string `json:"op"`
		URN      string `json:"urn"`
		NewState *struct {
			Type   string         `json:"type"`
			Parent string         `json:"parent"`
			Inputs map[string]any `json:"inputs"`
		} `json:"newState"`
	} `json:"steps"`
	ChangeSummary map[string]int `json:"changeSummary"`
	Duration      int64          `json:"duration"`
	Outputs       map[string]any `json:"outputs"`
}

// hasLines checks that out has each of want as a whole line, or for a
// want ending in a space, a line starting with it.
func hasLines(t *testing.T, what, out string, want ...string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			if l == w || strings.HasSuffix(w, " ") && strings.HasPrefix(l, w) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: no line %q in:\n%s", what, w, out)
		}
	}
}
