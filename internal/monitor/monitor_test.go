package monitor_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeMonitor is an engine.Monitor that records what it is given and
// answers every registration at once: ID "id-NAME", outputs = inputs.
type fakeMonitor struct {
	mu      sync.Mutex
	regs    []engine.Registration
	stack   resource.Object
	outputs map[resource.URN]resource.Object
	invokes []engine.InvokeRequest
}

func (f *fakeMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	f.mu.Lock()
	f.regs = append(f.regs, reg)
	f.mu.Unlock()
	urn := f.URN(reg.Type, reg.Name, reg.Parent)
	if reg.ReadID == "nope" {
		done(engine.Registered{}, &engine.ReadNotFoundError{URN: urn, ID: reg.ReadID})
		return
	}
	r := engine.Registered{URN: urn, ID: resource.NewString("id-" + reg.Name), Outputs: reg.Inputs, Custom: reg.Custom}
	if strings.HasPrefix(reg.Type, "pulumi:providers:") {
		r.ProviderRef = string(urn) + "::engine-id"
	}
	done(r, nil)
}

func (f *fakeMonitor) RegisterOutputs(urn resource.URN, outputs resource.Object) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.outputs[urn] = outputs
	return nil
}

func (f *fakeMonitor) SetStackOutputs(o resource.Object) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stack = o
}

func (f *fakeMonitor) Invoke(_ context.Context, req engine.InvokeRequest) (resource.Object, error) {
	f.mu.Lock()
	f.invokes = append(f.invokes, req)
	f.mu.Unlock()
	if req.Args["refuse"].Bool() {
		return nil, &engine.InvokeError{Token: req.Token, Failures: []provider.CheckFailure{{Property: "refuse", Reason: "refused"}}}
	}
	return resource.Object{"token": resource.NewString(req.Token)}, nil
}

func (f *fakeMonitor) Schema(context.Context, string, string) (*schema.Schema, error) {
	return nil, nil
}

func (f *fakeMonitor) URN(typ, name string, parent resource.URN) resource.URN {
	pt := ""
	if parent != "" {
		pt = parent.QualifiedType()
	}
	return resource.NewURN("dev", "proj", pt, typ, name)
}

// client serves a fake monitor and returns clients of both services.
func client(t *testing.T) (*fakeMonitor, *monitor.Server, pulumirpc.ResourceMonitorClient, pulumirpc.EngineClient, *[]monitor.Log) {
	t.Helper()
	fake := &fakeMonitor{outputs: map[resource.URN]resource.Object{}}
	srv, c, e, logs := serve(t, fake, monitor.Config{Stack: "dev", Project: "proj"})
	return fake, srv, c, e, logs
}

// serve serves mon with cfg (its Log set to collect the logs) and returns
// clients of both services.
func serve(t *testing.T, mon engine.Monitor, cfg monitor.Config) (*monitor.Server, pulumirpc.ResourceMonitorClient, pulumirpc.EngineClient, *[]monitor.Log) {
	t.Helper()
	var logs []monitor.Log
	var mu sync.Mutex
	cfg.Log = func(l monitor.Log) {
		mu.Lock()
		logs = append(logs, l)
		mu.Unlock()
	}
	srv, err := monitor.Start(mon, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	conn, err := grpc.NewClient(srv.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return srv, pulumirpc.NewResourceMonitorClient(conn), pulumirpc.NewEngineClient(conn), &logs
}

func obj(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const root = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"

func registerRoot(t *testing.T, c pulumirpc.ResourceMonitorClient) {
	t.Helper()
	resp, err := c.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{Type: monitor.StackType, Name: "proj-dev"})
	if err != nil || resp.GetUrn() != root {
		t.Fatalf("registering the stack: %v, URN %q, want %s", err, resp.GetUrn(), root)
	}
}

// TestRegisterResource: the stack component stays out of the engine,
// every option reaches the registration, explicit providers are mapped
// to the engine's references.
func TestRegisterResource(t *testing.T) {
	fake, _, c, _, _ := client(t)
	ctx := context.Background()
	registerRoot(t, c)
	prov, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "pulumi:providers:plinth", Name: "p", Custom: true, Parent: root,
		Object: obj(t, map[string]any{"root": "."})})
	if err != nil {
		t.Fatal(err)
	}
	protect, retain := true, true
	resp, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: "plinth:random:Pet", Name: "pet", Custom: true, Parent: root,
		Object:       obj(t, map[string]any{"length": 2}),
		Dependencies: []string{root, "urn:pulumi:dev::proj::plinth:random:Pet::other"},
		PropertyDependencies: map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{
			"length": {Urns: []string{root}}},
		Provider: prov.GetUrn() + "::" + prov.GetId(), Version: "0.1.0",
		Protect: &protect, RetainOnDelete: &retain, DeleteBeforeReplace: true,
		IgnoreChanges: []string{"keepers.a"}, ReplaceOnChanges: []string{"length"},
		CustomTimeouts: &pulumirpc.RegisterResourceRequest_CustomTimeouts{Create: "5m", Delete: "1h"},
		ImportId:       "witty-otter",
		Aliases: []*pulumirpc.Alias{
			{Alias: &pulumirpc.Alias_Urn{Urn: "urn:pulumi:dev::proj::plinth:random:Pet::old"}},
			{Alias: &pulumirpc.Alias_Spec_{Spec: &pulumirpc.Alias_Spec{Name: "older", Parent: &pulumirpc.Alias_Spec_ParentUrn{ParentUrn: root}}}},
		},
		AcceptSecrets: true, AcceptResources: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetUrn() != "urn:pulumi:dev::proj::plinth:random:Pet::pet" || resp.GetId() != "id-pet" || resp.GetObject().GetFields()["length"].GetNumberValue() != 2 {
		t.Errorf("response = %v", resp)
	}
	want := engine.Registration{
		Type: "plinth:random:Pet", Name: "pet", Custom: true,
		Inputs:               resource.Object{"length": resource.NewNumber(2)},
		Dependencies:         []resource.URN{"urn:pulumi:dev::proj::plinth:random:Pet::other"},
		PropertyDependencies: map[string][]resource.URN{"length": nil},
		Provider:             "urn:pulumi:dev::proj::pulumi:providers:plinth::p::engine-id", Version: "0.1.0",
		Protect: true, RetainOnDelete: true, DeleteBeforeReplace: true,
		IgnoreChanges: []string{"keepers.a"}, ReplaceOnChanges: []string{"length"},
		CustomTimeouts: engine.CustomTimeouts{Create: 5 * time.Minute, Delete: time.Hour},
		ImportID:       "witty-otter",
		Aliases:        []engine.Alias{{URN: "urn:pulumi:dev::proj::plinth:random:Pet::old"}, {Name: "older", NoParent: true}},
	}
	if len(fake.regs) != 2 {
		t.Fatalf("the engine got %d registrations, want 2 (the provider and the pet; not the stack)", len(fake.regs))
	}
	if diff := cmp.Diff(want, fake.regs[1], cmpopts.EquateEmpty(), cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("registration (-want +got):\n%s", diff)
	}
	if fake.regs[0].Parent != "" || fake.regs[0].Type != "pulumi:providers:plinth" {
		t.Errorf("provider registration = %+v, want no parent (the stack is none)", fake.regs[0])
	}
}

// TestMalformedValue: a value the wire codec cannot read is refused with
// the resource and property named, and the engine never sees it.
func TestMalformedValue(t *testing.T) {
	fake, srv, c, _, _ := client(t)
	registerRoot(t, c)
	_, err := c.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{
		Type: "plinth:fs:File", Name: "bad", Custom: true, Parent: root,
		Object: obj(t, map[string]any{"content": map[string]any{"4dabf18193072939515e22adb298388d": "nonsense"}}),
	})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("error = %v, want InvalidArgument", err)
	}
	for _, w := range []string{"resource urn:pulumi:dev::proj::plinth:fs:File::bad", "content", "malformed value"} {
		if !strings.Contains(err.Error(), w) || !strings.Contains(srv.Err().Error(), w) {
			t.Errorf("error %q (server: %v) does not say %q", err, srv.Err(), w)
		}
	}
	if len(fake.regs) != 0 {
		t.Errorf("the engine got %d registrations, want none", len(fake.regs))
	}
	select {
	case <-srv.Failed():
	default:
		t.Error("Failed() is not closed after a refused registration")
	}
}

// TestStackOutputsAndLogs: the stack component's outputs are the stack's;
// a component's go to the engine; logs reach Config.Log, errors are kept.
func TestStackOutputsAndLogs(t *testing.T) {
	fake, srv, c, e, logs := client(t)
	ctx := context.Background()
	registerRoot(t, c)
	if _, err := c.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: root, Outputs: obj(t, map[string]any{"x": "y"})}); err != nil {
		t.Fatal(err)
	}
	if !fake.stack.Equal(resource.Object{"x": resource.NewString("y")}) {
		t.Errorf("stack outputs = %v", fake.stack)
	}
	comp := "urn:pulumi:dev::proj::my:index:C::c"
	if _, err := c.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: comp, Outputs: obj(t, map[string]any{"a": true})}); err != nil {
		t.Fatal(err)
	}
	if !fake.outputs[resource.URN(comp)].Equal(resource.Object{"a": resource.NewBool(true)}) {
		t.Errorf("component outputs = %v", fake.outputs)
	}
	for _, l := range []*pulumirpc.LogRequest{
		{Severity: pulumirpc.LogSeverity_INFO, Message: "hello", Urn: root},
		{Severity: pulumirpc.LogSeverity_DEBUG, Message: "noise"},
		{Severity: pulumirpc.LogSeverity_ERROR, Message: "Error: boom\n    at main \x1b[90m(index.ts:3:9)\x1b[39m\n"},
	} {
		if _, err := e.Log(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]monitor.Log{{Severity: engine.SeverityInfo, Message: "hello"}}, *logs); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Error: boom\n    at main (index.ts:3:9)"}, srv.LoggedErrors()); diff != "" {
		t.Errorf("logged errors (-want +got):\n%s", diff)
	}
}

// TestUnsupported: what plinth does not serve is refused, saying so.
func TestUnsupported(t *testing.T) {
	_, _, c, _, _ := client(t)
	ctx := context.Background()
	calls := map[string]func() error{
		"timeouts": func() error {
			registerRoot(t, c)
			_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true,
				CustomTimeouts: &pulumirpc.RegisterResourceRequest_CustomTimeouts{Create: "soon"}})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if err == nil || !(strings.Contains(err.Error(), "not supported by plinth") || strings.Contains(err.Error(), "is not a duration")) {
				t.Errorf("error = %v, want a refusal that says why", err)
			}
		})
	}
	if resp, _ := c.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: "secrets"}); !resp.GetHasSupport() {
		t.Error("secrets are not supported")
	}
	if _, err := c.SignalAndWaitForShutdown(ctx, &emptypb.Empty{}); err != nil {
		t.Errorf("SignalAndWaitForShutdown: %v", err)
	}
}

// TestIgnoredOptions: options plinth does not honour are warned about by
// name; deletedWith, additionalSecretOutputs and pluginDownloadURL reach
// the engine (they were warned about and dropped) and
// additionalSecretOutputs come back as secrets.
func TestIgnoredOptions(t *testing.T) {
	fake, _, c, _, logs := client(t)
	registerRoot(t, c)
	resp, err := c.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{
		Type: "plinth:random:Pet", Name: "pet", Custom: true, Parent: root,
		Object:            obj(t, map[string]any{"prefix": "a"}),
		PluginDownloadURL: "https://example.com/plugins", DeletedWith: "urn:pulumi:dev::proj::plinth:random:Pet::other",
		AdditionalSecretOutputs: []string{"prefix"}, AcceptSecrets: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sig := resp.GetObject().GetFields()["prefix"].GetStructValue().GetFields()["4dabf18193072939515e22adb298388d"].GetStringValue(); sig != "1b47061264138c4ac30d75fd1eb44270" {
		t.Errorf("prefix = %v, want a secret", resp.GetObject().GetFields()["prefix"])
	}
	var msgs []string
	for _, l := range *logs {
		msgs = append(msgs, l.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, w := range []string{"deletedWith", "additionalSecretOutputs", "pluginDownloadURL"} {
		if strings.Contains(all, w) {
			t.Errorf("warnings mention %s, which plinth now honours:\n%s", w, all)
		}
	}
	if reg := fake.regs[0]; reg.DeletedWith != "urn:pulumi:dev::proj::plinth:random:Pet::other" || fmt.Sprint(reg.AdditionalSecretOutputs) != "[prefix]" || reg.PluginDownloadURL != "https://example.com/plugins" {
		t.Errorf("registration has deletedWith %q, additionalSecretOutputs %v, pluginDownloadURL %q", reg.DeletedWith, reg.AdditionalSecretOutputs, reg.PluginDownloadURL)
	}
}

// Recorded reports that the fake state holds nothing.
func (f *fakeMonitor) Recorded(resource.URN) bool { return false }

// TestRemoteComponent: a remote component reaches the engine marked
// Remote (the engine has its provider construct it); it was refused.
func TestRemoteComponent(t *testing.T) {
	fake, _, c, _, _ := client(t)
	registerRoot(t, c)
	_, err := c.RegisterResource(context.Background(), &pulumirpc.RegisterResourceRequest{
		Type: "comp:index:Widget", Name: "w", Remote: true, Parent: root, Object: obj(t, map[string]any{"size": 1}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.regs) != 1 || !fake.regs[0].Remote || fake.regs[0].Custom {
		t.Fatalf("the engine got %+v, want one remote component registration", fake.regs)
	}
}

// TestCall: a method call reaches the engine as a Method invoke with its
// token, arguments (the component under __self__) and their dependencies,
// and the result, or the argument failures, come back.
func TestCall(t *testing.T) {
	fake, _, c, _, _ := client(t)
	ctx := context.Background()
	resp, err := c.Call(ctx, &pulumirpc.ResourceCallRequest{Tok: "pkg:index:C/method",
		Args:            obj(t, map[string]any{"__self__": "urn:x", "n": 2}),
		ArgDependencies: map[string]*pulumirpc.ResourceCallRequest_ArgumentDependencies{"n": {Urns: []string{"urn:dep"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetReturn().AsMap()["token"]; got != "pkg:index:C/method" {
		t.Errorf("the call returned %v", resp.GetReturn().AsMap())
	}
	want := engine.InvokeRequest{Token: "pkg:index:C/method", Method: true,
		Args:            resource.Object{"__self__": resource.NewString("urn:x"), "n": resource.NewNumber(2)},
		ArgDependencies: map[string][]resource.URN{"n": {"urn:dep"}}}
	if diff := cmp.Diff([]engine.InvokeRequest{want}, fake.invokes, cmpopts.EquateEmpty(), cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("the engine got (-want +got):\n%s", diff)
	}
	bad, err := c.Call(ctx, &pulumirpc.ResourceCallRequest{Tok: "pkg:index:C/method", Args: obj(t, map[string]any{"refuse": true})})
	if err != nil || len(bad.GetFailures()) != 1 || bad.GetFailures()[0].GetReason() != "refused" {
		t.Errorf("a refused call gave %v, %v; want one failure", bad, err)
	}
}

// TestReadResource: a get reaches the engine as a read registration with
// its ID, properties, parent, dependencies and provider; the answer is
// the URN and what was read, with additionalSecretOutputs secret when the
// program accepts secrets; a get without an ID, and one the engine cannot
// find, are errors naming the resource.
func TestReadResource(t *testing.T) {
	fake, _, c, _, _ := client(t)
	ctx := context.Background()
	registerRoot(t, c)
	resp, err := c.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Type: "plinth:fs:File", Name: "f", Id: "/tmp/x", Parent: root,
		Properties: obj(t, map[string]any{"path": "/tmp/x"}), Dependencies: []string{root, "urn:pulumi:dev::proj::plinth:fs:File::g"},
		Provider: "urn:pulumi:dev::proj::pulumi:providers:plinth::p::pid", AdditionalSecretOutputs: []string{"path"}, AcceptSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetUrn() != "urn:pulumi:dev::proj::plinth:fs:File::f" {
		t.Errorf("urn = %q", resp.GetUrn())
	}
	if sig := resp.GetProperties().GetFields()["path"].GetStructValue().GetFields()["4dabf18193072939515e22adb298388d"].GetStringValue(); sig != "1b47061264138c4ac30d75fd1eb44270" {
		t.Errorf("path = %v, want a secret", resp.GetProperties().GetFields()["path"])
	}
	want := engine.Registration{Type: "plinth:fs:File", Name: "f", Custom: true, ReadID: "/tmp/x",
		Inputs:       resource.Object{"path": resource.NewString("/tmp/x")},
		Dependencies: []resource.URN{"urn:pulumi:dev::proj::plinth:fs:File::g"},
		Provider:     "urn:pulumi:dev::proj::pulumi:providers:plinth::p::pid", AdditionalSecretOutputs: []string{"path"}}
	if diff := cmp.Diff([]engine.Registration{want}, fake.regs, cmpopts.EquateEmpty(), cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("registration (-want +got):\n%s", diff)
	}
	plain, err := c.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Type: "plinth:fs:File", Name: "h", Id: "/tmp/h", Parent: root,
		Properties: obj(t, map[string]any{"path": "/tmp/h"}), AdditionalSecretOutputs: []string{"path"}})
	if err != nil || plain.GetProperties().GetFields()["path"].GetStringValue() != "/tmp/h" {
		t.Errorf("without acceptSecrets: %v, %v; want the plain value", plain, err)
	}
	for id, want := range map[string][]string{"": {"plinth:fs:File::bad", "without an ID"}, "nope": {"plinth:fs:File::bad", `"nope"`, "found no resource"}} {
		_, err := c.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Type: "plinth:fs:File", Name: "bad", Id: id, Parent: root})
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("get with ID %q: error %v does not say %q", id, err, w)
			}
		}
	}
}
