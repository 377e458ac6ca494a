//go:build unix

package pulumicli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestRoundTripThroughPulumi: a stack plinth made (a component parenting
// a protected resource, dependencies, a secret input and a secret stack
// output) is exported for Pulumi; `pulumi stack import` accepts it and
// `pulumi stack export` gives back the same resources and secret values
// (re-sealed with the same passphrase); plinth adopts that into a fresh
// backend, where a preview of the same program finds nothing to change
// and a new export equals the first.
func TestRoundTripThroughPulumi(t *testing.T) {
	w := newWorld(t, "roundtrip")
	w.plinth("up", "--yes")
	first := []byte(w.plinth("state", "export", "--format", "pulumi").Stdout)
	w.write(w.file("plinth.json"), string(first))

	checkCovers(t, normalise(t, first))

	w.mustPulumi("stack", "import", "--file", w.file("plinth.json"))
	w.mustPulumi("stack", "export", "--file", w.file("pulumi.json"))
	back := w.read(w.file("pulumi.json"))
	if diff := cmp.Diff(normalise(t, first), normalise(t, back)); diff != "" {
		t.Errorf("pulumi stack export after import (-plinth +pulumi):\n%s", diff)
	}
	if out := w.mustPulumi("stack", "output", "number", "--show-secrets"); strings.TrimSpace(out) != strings.TrimSpace(w.plinth("stack", "output", "number", "--show-secrets").Stdout) {
		t.Errorf("pulumi stack output number = %q, plinth's = %q", out, w.plinth("stack", "output", "number", "--show-secrets").Stdout)
	}

	// A fresh backend for the same stack and program: same URNs, same
	// provider root.
	w.env["PLINTH_BACKEND"] = "file:" + w.file("plinth-adopted")
	w.plinth("stack", "init", "dev")
	w.plinth("state", "adopt", "--format", "pulumi", w.file("pulumi.json"))
	if r := w.tryPlinth(w.env, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("preview after adopting pulumi's export: exit %d, want 0 (no changes)\n%s", r.Code, r.Output())
	}
	again := []byte(w.plinth("state", "export", "--format", "pulumi").Stdout)
	if diff := cmp.Diff(normalise(t, first), normalise(t, again)); diff != "" {
		t.Errorf("export after adopting pulumi's export (-first +again):\n%s", diff)
	}
}

// normalise is clitest.OpenDeployment with the test's passphrase.
func normalise(t *testing.T, data []byte) apitype.DeploymentV3 {
	t.Helper()
	return clitest.OpenDeployment(t, data, passphrase)
}

// checkCovers fails unless the export holds what the round trip is
// meant to take through pulumi, so that the comparison cannot pass
// vacuously.
func checkCovers(t *testing.T, d apitype.DeploymentV3) {
	t.Helper()
	by := map[string]apitype.ResourceV3{}
	for _, r := range d.Resources {
		by[string(r.URN.Name())] = r
	}
	checks := map[string]bool{
		"pet is protected, under the component": by["pet"].Protect && by["pet"].Parent == by["group"].URN,
		"note depends on the component":         len(by["note"].Dependencies) > 0,
		"note keeps its options":                by["note"].RetainOnDelete && len(by["note"].IgnoreChanges) == 1 && by["note"].CustomTimeouts != nil,
		"noteRead is external":                  by["noteRead"].External,
		"secret's content is a secret":          by["secret"].Inputs["content"] == "secret:\"not-a-real-token\"",
		"the stack output number is a secret":   strings.HasPrefix(fmt.Sprint(by["roundtrip-dev"].Outputs["number"]), "secret:"),
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("plinth's export does not hold what the test takes through pulumi: %s", what)
		}
	}
}
