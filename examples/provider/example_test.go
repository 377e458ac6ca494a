package example_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	prsc "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	example "github.com/plinth-iac/plinth/examples/provider"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The example in process, as plinth's engine runs it: the features of
// issue 20 item 7 that do not depend on a wire. e2e/tfserve/acceptance
// drives the same provider through terraform.

const serverType = "example:index:Server"

var serverURN = resource.NewURN("dev", "proj", "", serverType, "s")

func configured(t *testing.T) (provider.Provider, string) {
	t.Helper()
	dir := t.TempDir()
	p := example.New()
	ctx := context.Background()
	cfg, err := p.CheckConfig(ctx, provider.CheckRequest{News: resource.ObjectFromGo(map[string]any{"dir": dir})})
	if err != nil || len(cfg.Failures) > 0 {
		t.Fatal(err, cfg.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg.Inputs}); err != nil {
		t.Fatal(err)
	}
	return p, dir
}

func TestInProcessChecksWithPaths(t *testing.T) {
	p, _ := configured(t)
	resp, err := p.Check(context.Background(), provider.CheckRequest{URN: serverURN, News: resource.ObjectFromGo(map[string]any{
		"name": "web", "listener": map[string]any{"port": 0}, "size": "huge"})})
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.CheckFailure{
		{Property: "size", Reason: `must be one of "small", "medium", "large", got "huge"`},
		{Property: "listener.port", Reason: "must be at least 1, got 0"},
	}
	if d := cmp.Diff(want, resp.Failures); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
}

func TestInProcessLifecycle(t *testing.T) {
	p, dir := configured(t)
	ctx := context.Background()
	checked, err := p.Check(ctx, provider.CheckRequest{URN: serverURN, News: resource.ObjectFromGo(map[string]any{
		"name": "web", "size": "medium", "adminPassword": "correct-horse", "listener": map[string]any{"port": 80}})})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatal(err, checked.Failures)
	}
	if got := checked.Inputs["listener"].Object()["protocol"].Str(); got != "tcp" {
		t.Errorf("nested default: listener.protocol = %q, want tcp", got)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: serverURN, Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := created.Outputs["adminPassword"]; ok {
		t.Error("the write-only password is an output")
	}
	data, err := os.ReadFile(filepath.Join(dir, "web.json"))
	if err != nil || strings.Contains(string(data), "correct-horse") || !strings.Contains(string(data), "passwordHash") {
		t.Errorf("record = %s, %v: want a hash of the password and not the password", data, err)
	}
	grow := checked.Inputs.Copy()
	grow["size"] = resource.NewString("large")
	preview, err := p.Update(ctx, provider.UpdateRequest{URN: serverURN, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: grow, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if !preview.Outputs["serial"].Equal(created.Outputs["serial"]) || !preview.Outputs["address"].IsUnknown() {
		t.Errorf("update preview = %v: want the stable serial %v and an unknown address", preview.Outputs, created.Outputs["serial"])
	}
	// Private state: the revision rides in a secret output and comes back
	// to Update, which refuses a record changed behind its back.
	if !created.Outputs[provider.PrivateProperty].IsSecret() {
		t.Errorf("private data %v is not a secret output", created.Outputs[provider.PrivateProperty])
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: serverURN, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: grow})
	if err != nil {
		t.Fatalf("Update with the private revision: %v", err)
	}
	if _, err := p.Update(ctx, provider.UpdateRequest{URN: serverURN, ID: created.ID, OldInputs: checked.Inputs,
		OldOutputs: created.Outputs, News: grow}); err == nil || !strings.Contains(err.Error(), `is at "revision 2", but this resource last saw "revision 1"`) {
		t.Errorf("Update with a stale revision: %v; want it refused", err)
	}
	if _, err := p.Update(ctx, provider.UpdateRequest{URN: serverURN, ID: created.ID, OldInputs: grow,
		OldOutputs: updated.Outputs, News: checked.Inputs}); err != nil {
		t.Errorf("Update with the revision the last Update returned: %v", err)
	}
	for size, replace := range map[string]bool{"large": false, "small": true} {
		news := checked.Inputs.Copy()
		news["size"] = resource.NewString(size)
		d, err := p.Diff(ctx, provider.DiffRequest{URN: serverURN, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: news})
		if err != nil || d.Changes != provider.DiffSome || d.Replaces() != replace {
			t.Errorf("Diff to size %s = %+v, %v; want changes, replace %v", size, d, err, replace)
		}
	}
}

// TestThroughPulumi serves the example with pulumiserve and drives it
// with the Pulumi SDK's own provider client.
func TestThroughPulumi(t *testing.T) {
	ctx := context.Background()
	p := pulumiClient(t)
	schema, err := p.GetSchema(ctx, plugin.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"deprecationMessage":"Use tags[\"owner\"] instead."`, `"adminPassword":{"type":"string","description":"Administrator password (write-only).","secret":true}`} {
		if !bytes.Contains(schema.Schema, []byte(want)) {
			t.Errorf("schema lacks %s:\n%s", want, schema.Schema)
		}
	}
	typ := tokens.Type("pulumi:providers:example")
	if _, err := p.Configure(ctx, plugin.ConfigureRequest{Type: &typ,
		Inputs: prsc.NewPropertyMapFromMap(map[string]any{"dir": t.TempDir()})}); err != nil {
		t.Fatal(err)
	}
	urn := prsc.URN(serverURN)
	bad, err := p.Check(ctx, plugin.CheckRequest{URN: urn, Type: serverType,
		News: prsc.NewPropertyMapFromMap(map[string]any{"name": "web", "listener": map[string]any{"port": 70000}})})
	if err != nil || len(bad.Failures) != 1 || bad.Failures[0].Property != "listener.port" {
		t.Errorf("Check = %+v, %v; want one failure at listener.port", bad.Failures, err)
	}
	checked, err := p.Check(ctx, plugin.CheckRequest{URN: urn, Type: serverType,
		News: prsc.NewPropertyMapFromMap(map[string]any{"name": "web", "adminPassword": "correct-horse",
			"timeouts": map[string]any{"create": "1m"}})})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatal(err, checked.Failures)
	}
	if !checked.Properties["adminPassword"].IsSecret() {
		t.Error("the write-only password is not a secret in the checked inputs Pulumi records")
	}
	created, err := p.Create(ctx, plugin.CreateRequest{URN: urn, Type: serverType, Properties: checked.Properties})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := created.Properties["adminPassword"]; ok || created.Properties["serial"].StringValue() == "" {
		t.Errorf("Create outputs = %v: want a serial and no password", created.Properties)
	}
	grow := checked.Properties.Copy()
	grow["size"] = prsc.NewProperty("large")
	preview, err := p.Update(ctx, plugin.UpdateRequest{URN: urn, Type: serverType, ID: created.ID,
		OldInputs: checked.Properties, OldOutputs: created.Properties, NewInputs: grow, Preview: true})
	if err != nil || preview.Properties["serial"].StringValue() != created.Properties["serial"].StringValue() {
		t.Errorf("update preview = %v, %v: want the stable serial", preview.Properties, err)
	}
	if _, err := p.Update(ctx, plugin.UpdateRequest{URN: urn, Type: serverType, ID: created.ID,
		OldInputs: checked.Properties, OldOutputs: created.Properties, NewInputs: grow}); err != nil {
		t.Errorf("Update through Pulumi, which must give back the private revision: %v", err)
	}
	shrink := grow.Copy()
	shrink["size"] = prsc.NewProperty("small")
	d, err := p.Diff(ctx, plugin.DiffRequest{URN: urn, Type: serverType, ID: created.ID,
		OldInputs: grow, OldOutputs: preview.Properties, NewInputs: shrink})
	if err != nil || !d.Replace() {
		t.Errorf("Diff shrinking = %+v, %v; want a replacement", d, err)
	}
}

func pulumiClient(t *testing.T) plugin.Provider {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- pulumiserve.Serve(ctx, example.New(), pulumiserve.Options{Listener: lis, PortOut: &bytes.Buffer{}})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	pctx, err := plugin.NewContext(context.Background(), nil, nil, &plugin.MockHost{}, nil, t.TempDir(), nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return plugin.NewProviderWithClient(pctx, pb.NewResourceProviderClient(conn), false)
}

// TestInProcessEphemeralToken drives the ephemeral token through the
// SDK's EphemeralProvider, as tfserve does: checked arguments with
// paths, open, renew and close, each seen in tokens.log.
func TestInProcessEphemeralToken(t *testing.T) {
	p, dir := configured(t)
	ctx := context.Background()
	ep, ok := p.(provider.EphemeralProvider)
	if !ok {
		t.Fatal("the example provider is not an EphemeralProvider")
	}
	const tok = "example:index:Token"
	if _, ok := ep.EphemeralSchemas()[tok].Outputs["token"]; !ok {
		t.Errorf("schema of %s = %+v, want a token output", tok, ep.EphemeralSchemas()[tok])
	}
	bad, err := ep.CheckEphemeral(ctx, provider.CheckEphemeralRequest{Token: tok,
		Args: resource.ObjectFromGo(map[string]any{"server": "web", "ttl": "soon"})})
	want := []provider.CheckFailure{{Property: "ttl", Reason: `must be a duration such as "90s", "20m" or "1h30m", got "soon"`}}
	if d := cmp.Diff(want, bad.Failures); err != nil || d != "" {
		t.Errorf("CheckEphemeral: %v, failures (-want +got):\n%s", err, d)
	}
	opened, err := ep.OpenEphemeral(ctx, provider.OpenEphemeralRequest{Token: tok, Args: resource.ObjectFromGo(map[string]any{"server": "web"})})
	if err != nil || len(opened.Failures) > 0 || opened.Result["token"].SecretElement().Str() == "" || opened.RenewAt.IsZero() {
		t.Fatalf("OpenEphemeral = %+v, %v", opened, err)
	}
	if !opened.Result["token"].IsSecret() {
		t.Error("the token is not a secret")
	}
	renewed, err := ep.RenewEphemeral(ctx, provider.RenewEphemeralRequest{Token: tok, Private: opened.Private})
	if err != nil || string(renewed.Private) != string(opened.Private) {
		t.Errorf("RenewEphemeral = %+v, %v; want the private data kept", renewed, err)
	}
	if _, err := ep.CloseEphemeral(ctx, provider.CloseEphemeralRequest{Token: tok, Private: renewed.Private}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tokens.log"))
	id := string(opened.Private)
	for _, w := range []string{"issued " + id + " for web", "renewed " + id, "revoked " + id} {
		if !strings.Contains(string(data), w) {
			t.Errorf("tokens.log lacks %q:\n%s", w, data)
		}
	}
}
