package plinth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/inproc"
	"github.com/plinth-iac/plinth/providers/plinth"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The built-in provider through the engine's interface, as the engine uses
// it in process.
func TestBuiltinsThroughTheEngineInterface(t *testing.T) {
	root := t.TempDir()
	var p provider.Provider = inproc.New(plinth.New())
	ctx := context.Background()

	schema, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil || schema.Schema.Resources[plinth.FileType].Inputs["path"].ReplaceOnChanges != true {
		t.Fatalf("schema: %v", err)
	}
	cfg, err := p.CheckConfig(ctx, provider.CheckRequest{News: resource.ObjectFromGo(map[string]any{"root": root})})
	if err != nil || len(cfg.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, cfg.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg.Inputs}); err != nil {
		t.Fatal(err)
	}

	urn := urnOf(plinth.FileType, "f")
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: resource.ObjectFromGo(map[string]any{"path": "f.txt", "content": "one"})})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, checked.Failures)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
	if err != nil || created.ID != filepath.Join(root, "f.txt") {
		t.Fatalf("Create: %+v %v", created, err)
	}

	news := resource.ObjectFromGo(map[string]any{"path": "f.txt", "content": "two", "permissions": "0644"})
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: news})
	if err != nil || diff.Changes != provider.DiffSome || diff.Replaces() {
		t.Fatalf("Diff: %+v %v", diff, err)
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: news})
	if err != nil || readString(t, created.ID) != "two" {
		t.Fatalf("Update: %v", err)
	}

	if err := os.Remove(created.ID); err != nil {
		t.Fatal(err)
	}
	read, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: created.ID, Inputs: news, State: updated.Outputs})
	if err != nil || read.ID != "" {
		t.Errorf("Read of a deleted file = %+v, %v", read, err)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: created.ID, Inputs: news, Outputs: updated.Outputs}); err != nil {
		t.Errorf("Delete: %v", err)
	}

	inv, err := p.Invoke(ctx, provider.InvokeRequest{Token: plinth.GetEnvToken, Args: resource.ObjectFromGo(map[string]any{"name": "PLINTH_SURELY_UNSET", "default": "x"})})
	if err != nil || inv.Return["value"].Str() != "x" {
		t.Errorf("Invoke: %+v %v", inv, err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// Each New is a separate instance with its own configuration.
func TestNewGivesFreshInstances(t *testing.T) {
	a, b := plinth.New(), plinth.New()
	ctx := context.Background()
	if _, err := a.Configure(ctx, sdk.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := b.Invoke(ctx, sdk.InvokeRequest{Token: plinth.GetEnvToken, Args: resource.ObjectFromGo(map[string]any{"name": "HOME"})})
	if !errors.Is(err, sdk.ErrNotConfigured) {
		t.Errorf("configuring one instance configured another: %v", err)
	}
}
