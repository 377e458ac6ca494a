//go:build unix

package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// expectation is a program's expect.json.
type expectation struct {
	About    string `json:"about"`
	Recorded string `json:"recorded"`
	Up       stage  `json:"up"`
	Edit     stage  `json:"edit"`
	// PulumiPreview: the pulumi CLI can run the program in CI.
	PulumiPreview bool `json:"pulumiPreview"`
	// Skip names checks left out, each with the reason (a difference
	// between plinth and pulumi too big to fix here): see skippable.
	Skip map[string]string `json:"skip,omitempty"`
}

// stage is what one up must do: its step counts in pulumi's words
// (create, update, replace, delete, same) and the stack outputs after it.
type stage struct {
	Steps   map[string]int `json:"steps"`
	Outputs map[string]any `json:"outputs"`
}

// skippable lists the checks expect.json may skip, and what each is.
var skippable = map[string]string{
	"pulumiImport":  "pulumi stack import of plinth's export, its preview and export, and plinth adopting that back",
	"pulumiAdopt":   "plinth state adopt of the stack pulumi made itself (YAML) and its clean preview",
	"compareStacks": "the comparison of plinth's stack with the one pulumi made itself (YAML)",
}

// any matches any value in expected outputs.
const anyValue = "<any>"

func readExpectation(t *testing.T, dir string) expectation {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e expectation
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("%s/expect.json: %v", dir, err)
	}
	for k, why := range e.Skip {
		if _, ok := skippable[k]; !ok || why == "" {
			t.Fatalf("%s/expect.json: skip %q (%q): the checks that may be skipped are %v, each with its reason", dir, k, why, keys(skippable))
		}
	}
	return e
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// writeExpectation writes expect.json back, indented.
func writeExpectation(t *testing.T, dir string, e expectation) {
	t.Helper()
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "expect.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkStage compares what a tool did (who: "plinth up", "pulumi up
// after the edit") with a stage of the expectations.
func checkStage(t *testing.T, who string, want stage, steps map[string]int, outputs map[string]any) {
	t.Helper()
	if diff := cmp.Diff(want.Steps, steps); diff != "" {
		t.Errorf("%s: step counts (-want +got):\n%s", who, diff)
	}
	if diff := cmp.Diff(matchAny(want.Outputs, outputs), outputs); diff != "" {
		t.Errorf("%s: stack outputs (-want +got):\n%s", who, diff)
	}
}

// matchAny returns want with each "<any>" replaced by the value got has
// in its place, when got has one: "<any>" matches any value, but the key
// must exist.
func matchAny(want, got any) any {
	switch w := want.(type) {
	case string:
		if w == anyValue && got != nil {
			return got
		}
	case map[string]any:
		g, _ := got.(map[string]any)
		out := map[string]any{}
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				out[k] = v
				continue
			}
			out[k] = matchAny(v, gv)
		}
		return out
	case []any:
		g, _ := got.([]any)
		out := make([]any, len(w))
		for i, v := range w {
			var gv any
			if i < len(g) {
				gv = g[i]
			}
			out[i] = matchAny(v, gv)
		}
		return out
	}
	return want
}

// keepAny returns got with "<any>" wherever old had it, for recording:
// values random by nature stay unmatched.
func keepAny(old, got any) any {
	switch o := old.(type) {
	case string:
		if o == anyValue && got != nil {
			return anyValue
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := map[string]any{}
		for k, v := range g {
			out[k] = keepAny(o[k], v)
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return got
		}
		out := make([]any, len(g))
		for i, v := range g {
			var ov any
			if i < len(o) {
				ov = o[i]
			}
			out[i] = keepAny(ov, v)
		}
		return out
	}
	return got
}

// summaryLine is one line of pulumi's Resources block: "+ 4 created",
// "+-1 replaced", "3 unchanged".
var summaryLine = regexp.MustCompile(`^[-+~<>=]*\s*(\d+) (\S+)`)

// changesLine is the Resources block's total when it has several kinds
// of steps: "2 changes. 3 unchanged", "2 changes".
var changesLine = regexp.MustCompile(`^(\d+) changes?(?:\. (\d+) unchanged)?$`)

// stepWords maps the Resources block's words to expect.json's keys.
var stepWords = map[string]string{
	"created": "create", "updated": "update", "replaced": "replace",
	"deleted": "delete", "unchanged": "same", "imported": "import",
	"read": "read", "discarded": "discard",
}

// steps reads the step counts of a command's Resources block, failing
// the test when there is none or a line is not understood.
func steps(t *testing.T, who, out string) map[string]int {
	t.Helper()
	block := clitest.PulumiResources(out)
	if block == "" {
		t.Fatalf("%s: no Resources: block in its output:\n%s", who, out)
	}
	counts := map[string]int{}
	for _, l := range strings.Split(block, ", ") {
		if m := changesLine.FindStringSubmatch(l); m != nil {
			if m[2] != "" {
				n, _ := strconv.Atoi(m[2])
				counts["same"] += n
			}
			continue
		}
		m := summaryLine.FindStringSubmatch(l)
		key, ok := "", false
		if m != nil {
			key, ok = stepWords[m[2]]
		}
		if !ok {
			t.Fatalf("%s: Resources line %q not understood in:\n%s", who, l, out)
		}
		n, _ := strconv.Atoi(m[1])
		counts[key] += n
	}
	return counts
}
