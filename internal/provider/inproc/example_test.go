package inproc_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	example "github.com/plinth-iac/plinth/examples/provider"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/inproc"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The example provider (examples/provider) in the engine's own process:
// check paths, the write-only input, and its private data kept by the
// engine beside the state rather than as an output.
func TestExampleProviderInProcess(t *testing.T) {
	p := inproc.New(example.New())
	ctx := context.Background()
	cfg, err := p.CheckConfig(ctx, provider.CheckRequest{News: resource.ObjectFromGo(map[string]any{"dir": t.TempDir()})})
	if err != nil || len(cfg.Failures) > 0 {
		t.Fatal(err, cfg.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg.Inputs}); err != nil {
		t.Fatal(err)
	}
	u := resource.NewURN("dev", "proj", "", "example:index:Server", "s")
	bad, err := p.Check(ctx, provider.CheckRequest{URN: u, News: resource.ObjectFromGo(map[string]any{
		"name": "web", "listener": map[string]any{"port": 0}})})
	want := []provider.CheckFailure{{Property: "listener.port", Reason: "must be at least 1, got 0"}}
	if d := cmp.Diff(want, bad.Failures); err != nil || d != "" {
		t.Errorf("Check: %v, failures (-want +got):\n%s", err, d)
	}
	checked, err := p.Check(ctx, provider.CheckRequest{URN: u, News: resource.ObjectFromGo(map[string]any{
		"name": "web", "adminPassword": "correct-horse"})})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatal(err, checked.Failures)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := created.Outputs[sdk.PrivateProperty]; ok || string(created.Private) != "revision 1" {
		t.Errorf("Create: outputs %v, private %q; want the revision as private data, not as an output", created.Outputs, created.Private)
	}
	if _, ok := created.Outputs["adminPassword"]; ok {
		t.Error("the write-only password is an output")
	}
	grow := checked.Inputs.Copy()
	grow["size"] = resource.NewString("large")
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: u, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: grow, Private: created.Private})
	if err != nil || string(updated.Private) != "revision 2" {
		t.Fatalf("Update = private %q, %v; want revision 2", updated.Private, err)
	}
	_, err = p.Update(ctx, provider.UpdateRequest{URN: u, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: grow, Private: created.Private})
	if err == nil || !strings.Contains(err.Error(), "changed outside the provider") {
		t.Errorf("Update with stale private data: %v; want it refused", err)
	}
	read, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: created.ID, Inputs: grow, State: updated.Outputs, Private: updated.Private})
	if err != nil || string(read.Private) != "revision 2" {
		t.Errorf("Read = private %q, %v", read.Private, err)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: u, ID: created.ID, Inputs: grow, Outputs: updated.Outputs, Private: read.Private}); err != nil {
		t.Fatal(err)
	}
}
