//go:build unix

package corpus

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// compareStacks compares the stack plinth made with the one pulumi made
// from the same program, each in a directory of its own, both after the
// edit: the same resources, with the same options, dependencies and
// properties (secrets opened, so that what is secret must be secret in
// both). What differs by nature is left out: timestamps, source
// positions, provider IDs, and the program's directory in paths; see
// comparable for the rest.
func compareStacks(t *testing.T, plinthExport, pulumiExport string, plinthDir, pulumiDir string) {
	t.Helper()
	pl := comparable(clitest.OpenDeployment(t, []byte(plinthExport), passphrase), plinthDir)
	pu := comparable(clitest.OpenDeployment(t, []byte(pulumiExport), passphrase), pulumiDir)
	if diff := cmp.Diff(pu, pl); diff != "" {
		t.Errorf("the stack plinth made against the one pulumi made from the same program, after the edit (-pulumi +plinth):\n%s", diff)
	}
}

// randomIDs are the types whose IDs are random by nature.
var randomIDs = map[string]bool{"plinth:exec:Command": true, "plinth:time:Sleep": true}

// comparable is a deployment's resources sorted by URN, without what
// differs between two runs of one program, or says the same in two
// ways:
//   - timestamps, source positions and stack traces, provider IDs, random
//     IDs (randomIDs), the program's directory in strings;
//   - the order of dependencies and of each input's property
//     dependencies (sets; plinth sorts them, pulumi keeps the
//     program's order) and empty lists of property dependencies (pulumi
//     lists every input, plinth only those with dependencies);
//   - the root plinth's CLI gives its built-in provider (the program's
//     directory), which under pulumi defaults to the working directory,
//     the same directory.
func comparable(d apitype.DeploymentV3, dir string) []apitype.ResourceV3 {
	out := make([]apitype.ResourceV3, 0, len(d.Resources))
	for _, r := range d.Resources {
		r.Created, r.Modified, r.SourcePosition, r.StackTrace = nil, nil, "", nil
		if i := strings.LastIndex(r.Provider, "::"); i >= 0 {
			r.Provider = r.Provider[:i]
		}
		if strings.HasPrefix(string(r.Type), "pulumi:providers:") || randomIDs[string(r.Type)] {
			r.ID = ""
		}
		r.Dependencies = slices.Sorted(slices.Values(r.Dependencies))
		for k, deps := range r.PropertyDependencies {
			if len(deps) == 0 {
				delete(r.PropertyDependencies, k)
			} else {
				r.PropertyDependencies[k] = slices.Sorted(slices.Values(deps))
			}
		}
		if len(r.PropertyDependencies) == 0 {
			r.PropertyDependencies = nil
		}
		if r.Type == "pulumi:providers:plinth" {
			r.Inputs, r.Outputs = withoutRoot(r.Inputs, dir), withoutRoot(r.Outputs, dir)
		}
		r.ID = resource.ID(withoutDir(string(r.ID), dir).(string))
		r.Inputs = withoutDir(r.Inputs, dir).(map[string]any)
		r.Outputs = withoutDir(r.Outputs, dir).(map[string]any)
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URN < out[j].URN })
	return out
}

// withoutDir replaces dir in every string of v by "<dir>".
func withoutDir(v any, dir string) any {
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, dir, "<dir>")
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = withoutDir(e, dir)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = withoutDir(e, dir)
		}
		return out
	}
	return v
}

// withoutRoot drops root from a plinth provider's properties when it is
// the program's directory.
func withoutRoot(m map[string]any, dir string) map[string]any {
	if m["root"] != dir {
		return m
	}
	out := map[string]any{}
	for k, v := range m {
		if k != "root" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
