package pulumirpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

const urn = resource.URN("urn:pulumi:dev::proj::fault:index:Thing::t")

func launch(t *testing.T, fault string, sink *logSink) *Provider {
	t.Helper()
	p, err := Launch(context.Background(), faultConfig(fault, sink))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	sink := &logSink{}
	p := launch(t, "", sink)

	info, err := p.GetPluginInfo(ctx)
	if err != nil || info.Version != "1.2.3" {
		t.Fatalf("GetPluginInfo = %+v, %v", info, err)
	}
	cfg := resource.ObjectFromGo(map[string]any{"region": "eu-west-1", "tags": map[string]any{"a": 1}})
	if _, err := p.CheckConfig(ctx, provider.CheckRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:fault::default", News: cfg}); err != nil {
		t.Fatal(err)
	}
	feat, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(provider.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, feat); diff != "" {
		t.Errorf("Configure features (-want +got):\n%s", diff)
	}

	inputs := resource.Object{"value": resource.MakeSecret(resource.NewString("v1"))}
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: inputs})
	if err != nil || len(checked.Failures) != 0 {
		t.Fatalf("Check = %+v, %v", checked, err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	wantOuts := resource.Object{"value": resource.MakeSecret(resource.NewString("v1")), "out": resource.MakeSecret(resource.NewString("computed"))}
	if created.ID != "id-1" || !created.Outputs.Equal(wantOuts) {
		t.Errorf("Create = %s %v, want id-1 %v", created.ID, created.Outputs, wantOuts)
	}

	same, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: checked.Inputs})
	if err != nil || same.Changes != provider.DiffNone {
		t.Errorf("Diff of the same inputs = %+v, %v; want no changes", same, err)
	}
	changed, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: created.ID, OldOutputs: created.Outputs, News: resource.Object{"value": resource.NewString("v2")},
		IgnoreChanges: []resource.PropertyPath{{"tags", "a.b"}}})
	if err != nil {
		t.Fatal(err)
	}
	wantDiff := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"value"},
		DetailedDiff: resource.DetailedDiff{"value": {Kind: resource.DiffUpdate, InputDiff: true}}}
	if diff := cmp.Diff(wantDiff, changed); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}

	read, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: created.ID, Inputs: checked.Inputs, State: created.Outputs})
	if err != nil || read.ID != created.ID || !read.Outputs.Equal(created.Outputs) {
		t.Errorf("Read = %+v, %v", read, err)
	}
	gone, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: "gone"})
	if err != nil || gone.ID != "" {
		t.Errorf("Read of a deleted resource = %+v, %v; want an empty ID", gone, err)
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: created.ID, OldOutputs: created.Outputs, News: resource.Object{"value": resource.NewString("v2")}})
	if err != nil || updated.Outputs["value"].Str() != "v2" {
		t.Errorf("Update = %+v, %v", updated, err)
	}
	ret, err := p.Invoke(ctx, provider.InvokeRequest{Token: "fault:index:echo", Args: resource.Object{"x": resource.NewNumber(3)}})
	if err != nil || ret.Return["x"].Number() != 3 {
		t.Errorf("Invoke = %+v, %v", ret, err)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: created.ID, Outputs: created.Outputs}); err != nil {
		t.Fatal(err)
	}
	if err := p.SignalCancellation(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ stream, text string }{
		{"stdout", "listening (this line goes to the log)"},
		{"stderr", "started with fault "},
		{"stderr", "configured with variable region eu-west-1"},
		{"stderr", "cancel received"},
		{"engine", "creating " + string(urn)},
	} {
		if !sink.has(want.stream, want.text) {
			t.Errorf("the log lacks %s line %q; it has %v", want.stream, want.text, sink.lines)
		}
	}
}

func TestCheckFailures(t *testing.T) {
	p := launch(t, "", &logSink{})
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	got, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: resource.Object{"value": resource.NewString("bad")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.CheckFailure{{Property: "value", Reason: "value must be set and not bad"}}
	if diff := cmp.Diff(want, got.Failures); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestGetSchema(t *testing.T) {
	p := launch(t, "", &logSink{})
	got, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	str := schema.Type{Kind: schema.TypeString}
	want := &schema.Schema{
		Name: "fault", Version: "1.2.3",
		Resources: map[string]schema.ResourceSchema{"fault:index:Thing": {
			Inputs:  map[string]schema.Property{"value": {Type: str, Required: true}},
			Outputs: map[string]schema.Property{"value": {Type: str}, "out": {Type: str, Secret: true}},
		}},
		Functions: map[string]schema.FunctionSchema{},
	}
	if diff := cmp.Diff(want, got.Schema); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestUnknownConfig: configuration with unknowns is not sent; resource
// calls answer conservatively instead of reaching the plugin.
func TestUnknownConfig(t *testing.T) {
	p := launch(t, "crash", &logSink{}) // Create would crash if it were called
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{"region": resource.Unknown()}, Preview: true}); err != nil {
		t.Fatal(err)
	}
	news := resource.Object{"value": resource.Unknown()}
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: news})
	if err != nil || !checked.Inputs.Equal(news) {
		t.Errorf("Check = %+v, %v; want the inputs back", checked, err)
	}
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: "x", News: news})
	if err != nil || diff.Changes != provider.DiffUnknown {
		t.Errorf("Diff = %+v, %v; want unknown changes", diff, err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: news, Preview: true})
	if err != nil || !created.Outputs.Equal(news) {
		t.Errorf("Create preview = %+v, %v; want the inputs as outputs", created, err)
	}
}

// TestLegacyPlugin: no Handshake, no secrets, no previews: secrets are sent
// in the clear and come back marked, previews are answered locally.
func TestLegacyPlugin(t *testing.T) {
	p := launch(t, "legacy", &logSink{})
	ctx := context.Background()
	feat, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{}})
	if err != nil || feat.AcceptSecrets || feat.SupportsPreview {
		t.Fatalf("Configure = %+v, %v; want no features", feat, err)
	}
	preview, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("p")}, Preview: true})
	if err != nil || preview.ID != "" || preview.Outputs["value"].Str() != "p" {
		t.Errorf("Create preview = %+v, %v", preview, err)
	}
	secret := func(s string) resource.Value { return resource.MakeSecret(resource.NewString(s)) }
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{
		"value": secret("s"),
		"map":   resource.NewObject(resource.Object{"token": secret("t"), "user": resource.NewString("u")}),
		"list":  resource.NewArray(resource.NewString("v"), secret("l")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if v := created.Outputs["value"]; !v.IsSecret() || v.SecretElement().Str() != "s" {
		t.Errorf("output value = %v, want the secret kept", v)
	}
	// As Pulumi's engine does: a map is re-marked key by key, anything
	// else holding a secret is sealed whole.
	m := created.Outputs["map"]
	if m.IsSecret() || !m.Object()["token"].IsSecret() || m.Object()["user"].IsSecret() {
		t.Errorf("output map = %v, want only its token secret", m)
	}
	if l := created.Outputs["list"]; !l.IsSecret() {
		t.Errorf("output list = %v, want it sealed whole", l)
	}
}

func TestStartFaults(t *testing.T) {
	tests := map[string]struct {
		fault   string
		timeout time.Duration
		want    []string
	}{
		"exits":   {fault: "exit", want: []string{"provider fault", "did not start: it exited (exit status 3) before printing its port", "fatal: no credentials found"}},
		"garbage": {fault: "garbage", want: []string{`printed "Welcome to the plugin!" where its gRPC port should be`, faultPlugin}},
		"silent":  {fault: "silent", timeout: time.Second, want: []string{"did not print its port within 1s", faultPlugin}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := faultConfig(tc.fault, &logSink{})
			cfg.StartTimeout, cfg.CloseGrace = tc.timeout, 200*time.Millisecond
			p, err := Launch(context.Background(), cfg)
			if err == nil {
				p.Close()
				t.Fatal("Launch succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := Launch(context.Background(), Config{Name: "nope", Path: "/does/not/exist"}); err == nil || !strings.Contains(err.Error(), "/does/not/exist") {
		t.Errorf("launching a missing binary: %v", err)
	}
}

func TestCrashDuringCreate(t *testing.T) {
	p := launch(t, "crash", &logSink{})
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}})
	var ce *CallError
	if !errors.As(err, &ce) || !ce.Crashed {
		t.Fatalf("error %v is not a crash", err)
	}
	for _, w := range []string{"provider fault crashed during Create of " + string(urn), "exit status 2", "panic: runtime error: the thing exploded"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestHangPastTimeout(t *testing.T) {
	cfg := faultConfig("hang", &logSink{})
	cfg.CloseGrace = 200 * time.Millisecond
	p, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err = p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}, Timeout: 400 * time.Millisecond})
	want := "provider fault did not finish Create of " + string(urn) + " within its timeout of 400ms"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}

func TestMalformedOutputs(t *testing.T) {
	p := launch(t, "malformed", &logSink{})
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}})
	var ie *provider.InitError
	if !errors.As(err, &ie) || ie.ID != "id-bad" {
		t.Fatalf("error %v is not an InitError for id-bad: the resource exists and must be recorded", err)
	}
	if !strings.Contains(err.Error(), "property out: malformed secret: it has no value") {
		t.Errorf("error %q does not say what is malformed", err)
	}
}

func TestInitFailure(t *testing.T) {
	p := launch(t, "initfail", &logSink{})
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}})
	var ie *provider.InitError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is not an InitError", err)
	}
	want := &provider.InitError{ID: "id-partial", Reasons: []string{"health check failed"},
		Outputs: resource.Object{"value": resource.NewString("v"), "out": resource.MakeSecret(resource.NewString("computed"))}}
	if ie.ID != want.ID || !ie.Outputs.Equal(want.Outputs) || !cmp.Equal(ie.Reasons, want.Reasons) {
		t.Errorf("InitError = %+v, want %+v", ie, want)
	}
}

func TestMissingConfig(t *testing.T) {
	p := launch(t, "missingconfig", &logSink{})
	_, err := p.Configure(context.Background(), provider.ConfigureRequest{})
	want := `missing required configuration key "fault:region": The region to use.`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v lacks %q", err, want)
	}
}

// TestCloseKillsStubbornPlugin: a plugin that ignores SIGTERM is killed
// after the grace period.
func TestCloseKillsStubbornPlugin(t *testing.T) {
	cfg := faultConfig("stubborn", &logSink{})
	cfg.CloseGrace = 300 * time.Millisecond
	p, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.proc.HasExited(0) || !strings.Contains(p.proc.ExitStatus(), "killed") {
		t.Errorf("after Close the plugin's status is %q, want killed", p.proc.ExitStatus())
	}
}

func TestCallsAfterClose(t *testing.T) {
	p := launch(t, "", &logSink{})
	p.Close()
	_, err := p.GetPluginInfo(context.Background())
	if err == nil || !strings.Contains(err.Error(), "provider fault: GetPluginInfo called after the provider was closed") {
		t.Errorf("a call after Close gave %v", err)
	}
}

// TestOutcomeUnknown: a Create that ended without the plugin's answer may
// have created something, so its error is provider.ErrOutcomeUnknown; an
// error a live plugin returned is a definite answer, and a partial result
// is an InitError the engine records.
func TestOutcomeUnknown(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	tests := map[string]struct {
		fault   string
		ctx     context.Context
		timeout time.Duration
		unknown bool
	}{
		"crash":             {fault: "crash", unknown: true},
		"hang past timeout": {fault: "hang", timeout: 300 * time.Millisecond, unknown: true},
		"hang, cancelled":   {fault: "hang", ctx: cancelled, unknown: true},
		"no ID":             {fault: "noid", unknown: true},
		"refused":           {fault: "refuse"},
		"malformed outputs": {fault: "malformed"},
		"init failure":      {fault: "initfail"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := faultConfig(tc.fault, &logSink{})
			cfg.CloseGrace = 200 * time.Millisecond
			p, err := Launch(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if _, err := p.Configure(context.Background(), provider.ConfigureRequest{}); err != nil {
				t.Fatal(err)
			}
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			_, err = p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}, Timeout: tc.timeout})
			if err == nil {
				t.Fatal("Create succeeded")
			}
			if got := provider.IsOutcomeUnknown(err); got != tc.unknown {
				t.Errorf("IsOutcomeUnknown(%v) = %v, want %v", err, got, tc.unknown)
			}
		})
	}
}

// TestOutcomeUnknownOnlyForChanges: a crash in a call that changes nothing
// (Check) is not an unknown outcome.
func TestOutcomeUnknownOnlyForChanges(t *testing.T) {
	for _, code := range []codes.Code{codes.Unavailable, codes.DeadlineExceeded} {
		e := grpcplugin.NewCallError("p", "Check", "", status.Error(code, "x"))
		e.Crashed = true
		if provider.IsOutcomeUnknown(e) {
			t.Errorf("a %s Check is an unknown outcome", code)
		}
		e.Method = "Delete"
		if !provider.IsOutcomeUnknown(e) {
			t.Errorf("a %s Delete is not an unknown outcome", code)
		}
	}
	garbled := &CallError{Provider: "p", Method: "Update", Code: codes.Internal, Message: "grpc: failed to unmarshal the received message: proto: cannot parse invalid wire-format data"}
	if !provider.IsOutcomeUnknown(garbled) {
		t.Errorf("an Update whose answer could not be read is not an unknown outcome")
	}
	deliberate := &CallError{Provider: "p", Method: "Update", Code: codes.Internal, Message: "database is read-only"}
	if provider.IsOutcomeUnknown(deliberate) {
		t.Errorf("an Update the plugin refused is an unknown outcome")
	}
}

// TestHugeStateRefused: a state over provider.MaxStateBytes is refused
// with an error naming the resource; the created resource's ID is kept so
// nothing is forgotten.
func TestHugeStateRefused(t *testing.T) {
	p := launch(t, "huge", &logSink{})
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"value": resource.NewString("v")}})
	var ie *provider.InitError
	if !errors.As(err, &ie) || ie.ID != "id-huge" || ie.Outputs != nil {
		t.Fatalf("error %v is not an InitError for id-huge without outputs", err)
	}
	for _, w := range []string{string(urn), "over plinth's limit of 16 MiB"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}
