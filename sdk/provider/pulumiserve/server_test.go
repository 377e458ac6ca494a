package pulumiserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	prsc "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"
)

// serve starts the test provider on a loopback port, as the plugin would,
// and returns a gRPC connection to it.
func serve(t *testing.T) *grpc.ClientConn {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var portLine bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, newTestProvider(), Options{Listener: lis, PortOut: &portLine}) }()
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
	return conn
}

// pulumiClient is the Pulumi SDK's own provider client over conn: an
// independent implementation of the engine side of the protocol.
func pulumiClient(t *testing.T, conn *grpc.ClientConn) plugin.Provider {
	t.Helper()
	pctx, err := plugin.NewContext(context.Background(), nil, nil, &plugin.MockHost{}, nil, t.TempDir(), nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return plugin.NewProviderWithClient(pctx, pb.NewResourceProviderClient(conn), false)
}

const boxURN = prsc.URN("urn:pulumi:dev::proj::test:index:Box::b")

var boxType = tokens.Type("test:index:Box")

func pmap(m map[string]any) prsc.PropertyMap { return prsc.NewPropertyMapFromMap(m) }

func TestLifecycleThroughPulumiClient(t *testing.T) {
	ctx := context.Background()
	p := pulumiClient(t, serve(t))

	info, err := p.GetPluginInfo(ctx)
	if err != nil || info.Version == nil || info.Version.String() != "0.3.0" {
		t.Fatalf("GetPluginInfo = %+v, %v", info, err)
	}
	provURN := prsc.URN("urn:pulumi:dev::proj::pulumi:providers:test::default")
	cfg, err := p.CheckConfig(ctx, plugin.CheckConfigRequest{URN: provURN, News: pmap(map[string]any{"region": "north"})})
	if err != nil || len(cfg.Failures) != 0 {
		t.Fatalf("CheckConfig = %+v, %v", cfg, err)
	}
	moved, err := p.DiffConfig(ctx, plugin.DiffConfigRequest{URN: provURN, OldInputs: cfg.Properties, OldOutputs: cfg.Properties,
		NewInputs: pmap(map[string]any{"region": "south"})})
	if err != nil || moved.Changes != plugin.DiffSome {
		t.Errorf("DiffConfig of a new region = %+v, %v; want changes", moved, err)
	}
	schema, err := p.GetSchema(ctx, plugin.GetSchemaRequest{})
	if err != nil || !bytes.Contains(schema.Schema, []byte(`"test:index:Box"`)) {
		t.Errorf("GetSchema = %s, %v", schema.Schema, err)
	}
	typ := tokens.Type("pulumi:providers:test")
	if _, err := p.Configure(ctx, plugin.ConfigureRequest{Type: &typ, Inputs: cfg.Properties}); err != nil {
		t.Fatal(err)
	}

	// A preview: the tags are not known yet, and the ARN cannot be.
	previewNews := pmap(map[string]any{"name": "b", "password": "hunter2"})
	previewNews["password"] = prsc.MakeSecret(previewNews["password"])
	previewNews["tags"] = prsc.MakeComputed(prsc.NewProperty(""))
	checked, err := p.Check(ctx, plugin.CheckRequest{URN: boxURN, Type: boxType, News: previewNews, AllowUnknowns: true})
	if err != nil || len(checked.Failures) != 0 {
		t.Fatalf("Check = %+v, %v", checked, err)
	}
	if !checked.Properties["password"].IsSecret() || !checked.Properties["tags"].IsComputed() || checked.Properties["size"].NumberValue() != 1 {
		t.Errorf("checked inputs = %v: want the secret kept, tags unknown and size defaulted", checked.Properties)
	}
	preview, err := p.Create(ctx, plugin.CreateRequest{URN: boxURN, Type: boxType, Properties: checked.Properties, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if !preview.Properties["arn"].IsComputed() || preview.ID != "" {
		t.Errorf("preview = %+v: want no ID and an unknown ARN", preview)
	}

	// The update itself.
	news := previewNews.Copy()
	news["tags"] = prsc.NewProperty(prsc.PropertyMap{"env": prsc.NewProperty("dev")})
	checked, err = p.Check(ctx, plugin.CheckRequest{URN: boxURN, Type: boxType, News: news})
	if err != nil {
		t.Fatal(err)
	}
	created, err := p.Create(ctx, plugin.CreateRequest{URN: boxURN, Type: boxType, Properties: checked.Properties})
	if err != nil {
		t.Fatal(err)
	}
	if created.ID != "box-b" || created.Properties["arn"].StringValue() != "arn:north:b" || !created.Properties["password"].IsSecret() {
		t.Errorf("Create = %s %v", created.ID, created.Properties)
	}

	same, err := p.Diff(ctx, plugin.DiffRequest{URN: boxURN, Type: boxType, ID: created.ID, OldInputs: checked.Properties, OldOutputs: created.Properties, NewInputs: checked.Properties})
	if err != nil || same.Changes != plugin.DiffNone {
		t.Errorf("Diff of the same inputs = %+v, %v", same, err)
	}
	bigger := checked.Properties.Copy()
	bigger["size"] = prsc.NewProperty(2.0)
	replace, err := p.Diff(ctx, plugin.DiffRequest{URN: boxURN, Type: boxType, ID: created.ID, OldInputs: checked.Properties, OldOutputs: created.Properties, NewInputs: bigger})
	if err != nil {
		t.Fatal(err)
	}
	if replace.Changes != plugin.DiffSome || !replace.Replace() || replace.DetailedDiff["size"].Kind != plugin.DiffUpdateReplace {
		t.Errorf("Diff of a new size = %+v: want a replacement of size", replace)
	}

	renamed := checked.Properties.Copy()
	renamed["tags"] = prsc.NewProperty(prsc.PropertyMap{"env": prsc.NewProperty("prod")})
	updated, err := p.Update(ctx, plugin.UpdateRequest{URN: boxURN, Type: boxType, ID: created.ID, OldInputs: checked.Properties, OldOutputs: created.Properties, NewInputs: renamed})
	if err != nil || updated.Properties["tags"].ObjectValue()["env"].StringValue() != "prod" {
		t.Errorf("Update = %+v, %v", updated, err)
	}
	read, err := p.Read(ctx, plugin.ReadRequest{URN: boxURN, Type: boxType, ID: created.ID, Inputs: renamed, State: updated.Properties})
	if err != nil || read.ID != created.ID || !read.Outputs.DeepEquals(updated.Properties) {
		t.Errorf("Read = %+v, %v", read, err)
	}
	gone, err := p.Read(ctx, plugin.ReadRequest{URN: boxURN, Type: boxType, ID: "box-gone"})
	if err != nil || gone.ID != "" {
		t.Errorf("Read of a deleted box = %+v, %v", gone, err)
	}
	if _, err := p.Delete(ctx, plugin.DeleteRequest{URN: boxURN, Type: boxType, ID: created.ID, Inputs: renamed, Outputs: updated.Properties}); err != nil {
		t.Fatal(err)
	}
	ret, err := p.Invoke(ctx, plugin.InvokeRequest{Tok: "test:index:upper", Args: pmap(map[string]any{"text": "shout"})})
	if err != nil || ret.Properties["text"].StringValue() != "SHOUT" {
		t.Errorf("Invoke = %+v, %v", ret, err)
	}
	if err := p.SignalCancellation(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFailuresThroughPulumiClient(t *testing.T) {
	ctx := context.Background()
	p := pulumiClient(t, serve(t))
	cfg, err := p.CheckConfig(ctx, plugin.CheckConfigRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:test::default", News: pmap(map[string]any{})})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Failures) != 1 || cfg.Failures[0].Property != "region" {
		t.Errorf("CheckConfig failures = %+v, want one for region", cfg.Failures)
	}
	typ := tokens.Type("pulumi:providers:test")
	if _, err := p.Configure(ctx, plugin.ConfigureRequest{Type: &typ, Inputs: pmap(map[string]any{"region": "r"})}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Check(ctx, plugin.CheckRequest{URN: boxURN, Type: boxType, News: pmap(map[string]any{"size": "big", "colour": 1})})
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	for _, f := range got.Failures {
		props = append(props, string(f.Property))
	}
	if diff := cmp.Diff([]string{"colour", "name", "size"}, sortStrings(props)); diff != "" {
		t.Errorf("failing properties (-want +got):\n%s\nfailures: %+v", diff, got.Failures)
	}
}

func TestInitFailureThroughPulumiClient(t *testing.T) {
	ctx := context.Background()
	p := pulumiClient(t, serve(t))
	typ := tokens.Type("pulumi:providers:test")
	if _, err := p.Configure(ctx, plugin.ConfigureRequest{Type: &typ, Inputs: pmap(map[string]any{"region": "r"})}); err != nil {
		t.Fatal(err)
	}
	resp, err := p.Create(ctx, plugin.CreateRequest{URN: boxURN, Type: boxType, Properties: pmap(map[string]any{"name": "partial", "size": 1})})
	var ie *plugin.InitError
	if !errors.As(err, &ie) {
		t.Fatalf("Create error %v is not an init failure", err)
	}
	if resp.ID != "box-partial" || resp.Status != prsc.StatusPartialFailure || resp.Properties["arn"].StringValue() != "arn:r:partial" {
		t.Errorf("partial Create = %+v", resp)
	}
	if !strings.Contains(err.Error(), "the box never became ready") {
		t.Errorf("reasons %q lack the cause", err)
	}
}

// TestUnconfiguredCallsFail: resource calls before Configure fail clearly.
func TestUnconfiguredCallsFail(t *testing.T) {
	client := pb.NewResourceProviderClient(serve(t))
	_, err := client.Create(context.Background(), &pb.CreateRequest{Urn: string(boxURN)})
	if err == nil || !strings.Contains(err.Error(), "not configured") {
		t.Errorf("Create before Configure: %v", err)
	}
}

func TestLegacyVariables(t *testing.T) {
	ctx := context.Background()
	client := pb.NewResourceProviderClient(serve(t))
	//lint:ignore SA1019 the test plays an engine that predates Args and sends only the deprecated Variables
	_, err := client.Configure(ctx, &pb.ConfigureRequest{Variables: map[string]string{"test:config:region": "west"}})
	if err != nil {
		t.Fatal(err)
	}
	props := &structpb.Struct{Fields: map[string]*structpb.Value{"name": structpb.NewStringValue("v"), "size": structpb.NewNumberValue(1)}}
	resp, err := client.Create(ctx, &pb.CreateRequest{Urn: string(boxURN), Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if arn := resp.GetProperties().GetFields()["arn"].GetStringValue(); arn != "arn:west:v" {
		t.Errorf("arn = %q: the region variable was not applied", arn)
	}
}

func TestSchemaDocument(t *testing.T) {
	client := pb.NewResourceProviderClient(serve(t))
	resp, err := client.GetSchema(context.Background(), &pb.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(resp.GetSchema()), &doc); err != nil {
		t.Fatal(err)
	}
	checkSchemaRefs(t, doc, doc)
	box := doc["resources"].(map[string]any)["test:index:Box"].(map[string]any)
	ins := box["inputProperties"].(map[string]any)
	want := map[string]any{"type": "integer", "replaceOnChanges": true, "default": 1.0}
	if diff := cmp.Diff(want, ins["size"]); diff != "" {
		t.Errorf("size (-want +got):\n%s", diff)
	}
	if pw := ins["password"].(map[string]any); pw["secret"] != true {
		t.Errorf("password is not secret: %v", pw)
	}
	if tags := ins["tags"].(map[string]any); tags["type"] != "object" || tags["additionalProperties"].(map[string]any)["type"] != "string" {
		t.Errorf("tags = %v, want a map of strings", tags)
	}
	if diff := cmp.Diff([]any{"name"}, box["requiredInputs"]); diff != "" {
		t.Errorf("requiredInputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{"region"}, doc["config"].(map[string]any)["required"]); diff != "" {
		t.Errorf("config required (-want +got):\n%s", diff)
	}
}

// checkSchemaRefs walks a schema document: every $ref must name a type
// the document defines or one of Pulumi's built-in types, and every
// "type" must be one the metaschema allows.
func checkSchemaRefs(t *testing.T, doc, node any) {
	t.Helper()
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			switch k {
			case "$ref":
				ref := v.(string)
				tok, local := strings.CutPrefix(ref, "#/types/")
				_, defined := doc.(map[string]any)["types"].(map[string]any)[tok]
				builtin := ref == "pulumi.json#/Any" || ref == "pulumi.json#/Asset" || ref == "pulumi.json#/Archive" || ref == "pulumi.json#/Json"
				if !(local && defined) && !builtin {
					t.Errorf("dangling $ref %q", ref)
				}
			case "type":
				if s, ok := v.(string); ok && !strings.Contains("boolean integer number string array object", s) {
					t.Errorf("invalid type %q", s)
				}
			}
			checkSchemaRefs(t, doc, v)
		}
	case []any:
		for _, v := range n {
			checkSchemaRefs(t, doc, v)
		}
	}
}

func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestServePrintsPort(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Serve(ctx, newTestProvider(), Options{Listener: lis, PortOut: &out}); err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(lis.Addr().(*net.TCPAddr).Port) + "\n"
	if out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}
