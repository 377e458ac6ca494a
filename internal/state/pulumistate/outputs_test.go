package pulumistate

import (
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestExportOutputsWithoutResources: a stack with outputs and no
// resources keeps its outputs, a secret among them, through an export and
// an adoption, its stack resource named from ExportOptions; without the
// names the export is refused rather than dropping the outputs. The
// outputs were dropped: the stack resource was written only when a
// resource's URN named it.
func TestExportOutputsWithoutResources(t *testing.T) {
	outputs := resource.Object{"greeting": resource.NewString("hello"), "key": resource.MakeSecret(resource.NewString("k3y"))}
	snap := &state.Snapshot{Outputs: outputs}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{Stack: "prod", Project: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"urn:pulumi:prod::web::pulumi:pulumi:Stack::web-prod"`) {
		t.Errorf("the export has no stack resource named for prod and web:\n%s", out)
	}
	if strings.Contains(string(out), "k3y") {
		t.Error("the export holds a secret output in plain text")
	}
	d, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := ToSnapshot(d, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
		t.Fatal(err)
	}
	if !back.Outputs.Equal(outputs) || len(back.Resources) != 0 {
		t.Errorf("round trip: outputs %v and %d resources, want %v and none", back.Outputs, len(back.Resources), outputs)
	}

	if _, err := FromSnapshot(snap, p, time.Now(), ExportOptions{}); err == nil || !strings.Contains(err.Error(), "outputs and no resources") {
		t.Errorf("export without the stack's names: error %v, want a refusal", err)
	}
	if _, err := FromSnapshot(&state.Snapshot{}, p, time.Now(), ExportOptions{}); err != nil {
		t.Errorf("an empty stack's export: %v", err)
	}
}
