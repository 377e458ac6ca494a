//go:build unix

package pulumicli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

const (
	numberURN = "urn:pulumi:dev::roundtrip::plinth:random:Integer::number"
	extraURN  = "urn:pulumi:dev::roundtrip::plinth:fs:File::extra"
)

// TestPendingAndTaintThroughPulumi: a plinth stack with a tainted
// resource and a pending create is exported for Pulumi. pulumi stack
// import keeps the taint but drops the pending operation, saying so
// (`removing pending operation 'creating' on '<URN>'`, as it does with
// every deployment it imports); adopting pulumi's export back gives the
// tainted resource and no pending operation. The pending create is put
// in plinth's state by adopting plinth's own export with one added: a
// real one needs a run killed mid-create.
func TestPendingAndTaintThroughPulumi(t *testing.T) {
	w := newWorld(t, "roundtrip")
	w.plinth("up", "--yes")
	w.plinth("state", "taint", numberURN)
	w.write(w.file("pending.json"), string(withPendingCreate(t, []byte(w.plinth("state", "export", "--format", "pulumi").Stdout))))
	w.env["PLINTH_BACKEND"] = "file:" + w.file("plinth-pending")
	w.plinth("stack", "init", "dev")
	w.plinth("state", "adopt", "--format", "pulumi", w.file("pending.json"))
	if out := w.plinth("state", "pending").Stdout; !strings.Contains(out, "create "+extraURN) {
		t.Fatalf("plinth state pending after adopting a pending create:\n%s", out)
	}
	res := w.plinth("state", "export", "--format", "pulumi")
	if want := "holds 1 pending operation, which `pulumi stack import` drops"; !strings.Contains(res.Stderr, want) {
		t.Errorf("plinth state export did not warn %q:\n%s", want, res.Stderr)
	}
	exported := res.Stdout
	w.write(w.file("plinth.json"), exported)
	if d := normalise(t, []byte(exported)); len(d.PendingOperations) != 1 || !tainted(d, numberURN) {
		t.Fatalf("plinth's export holds %d pending operations and number tainted=%v; want 1 and true", len(d.PendingOperations), tainted(d, numberURN))
	}

	out := w.mustPulumi("stack", "import", "--file", w.file("plinth.json"))
	if want := "removing pending operation 'creating' on '" + extraURN + "'"; !strings.Contains(out, want) {
		t.Errorf("pulumi stack import did not say %q:\n%s", want, out)
	}
	w.mustPulumi("stack", "export", "--file", w.file("pulumi.json"))
	back := normalise(t, w.read(w.file("pulumi.json")))
	if len(back.PendingOperations) != 0 || !tainted(back, numberURN) {
		t.Errorf("pulumi's export holds %d pending operations and number tainted=%v; want 0 (pulumi drops them) and true",
			len(back.PendingOperations), tainted(back, numberURN))
	}
	sent := normalise(t, []byte(exported))
	sent.PendingOperations = nil
	if diff := cmp.Diff(sent, back); diff != "" {
		t.Errorf("pulumi stack export after import, pending operations aside (-plinth +pulumi):\n%s", diff)
	}

	w.env["PLINTH_BACKEND"] = "file:" + w.file("plinth-back")
	w.plinth("stack", "init", "dev")
	w.plinth("state", "adopt", "--format", "pulumi", w.file("pulumi.json"))
	if out := w.plinth("state", "ls").Stdout; !strings.Contains(lineOf(out, numberURN), "tainted") {
		t.Errorf("plinth state ls after adopting pulumi's export: number is not tainted\n%s", out)
	}
	if out := w.plinth("state", "pending").Stdout; !strings.Contains(out, "no pending operations") {
		t.Errorf("plinth state pending after adopting pulumi's export:\n%s", out)
	}
}

// withPendingCreate adds to an exported deployment a pending create of
// a file, on the provider the deployment's note uses.
func withPendingCreate(t *testing.T, data []byte) []byte {
	t.Helper()
	var u apitype.UntypedDeployment
	var d map[string]any
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	var provider any
	for _, r := range d["resources"].([]any) {
		if r := r.(map[string]any); strings.HasSuffix(r["urn"].(string), "::note") {
			provider = r["provider"]
		}
	}
	d["pending_operations"] = []any{map[string]any{"type": "creating", "resource": map[string]any{
		"urn": extraURN, "custom": true, "type": "plinth:fs:File", "provider": provider,
		"inputs": map[string]any{"path": "out/extra.txt", "content": "extra"},
	}}}
	raw, err := json.Marshal(d)
	if err == nil {
		data, err = json.Marshal(apitype.UntypedDeployment{Version: u.Version, Deployment: raw})
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tainted says whether the deployment's resource urn is tainted.
func tainted(d apitype.DeploymentV3, urn string) bool {
	for _, r := range d.Resources {
		if string(r.URN) == urn {
			return r.Taint
		}
	}
	return false
}

// lineOf is the line of out that mentions s.
func lineOf(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
