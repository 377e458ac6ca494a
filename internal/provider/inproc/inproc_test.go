package inproc_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/inproc"
	"github.com/plinth-iac/plinth/internal/schema"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A small key-value provider written with the SDK, driven only through the
// engine's provider.Provider interface.

type kvConfig struct {
	Namespace string `plinth:"namespace" default:"default" doc:"Prefix of every key."`
}

type entryArgs struct {
	Key   string   `plinth:"key,replaceOnChanges" doc:"The key."`
	Value string   `plinth:"value"`
	Token string   `plinth:"token,optional,secret"`
	Tags  []string `plinth:"tags,optional"`
}

type entryState struct {
	entryArgs
	Version int `plinth:"version"`
}

type entry struct {
	started chan struct{} // closed when a Create of key "slow" starts
}

func (e *entry) Create(ctx context.Context, op sdk.CreateOp[entryArgs]) (sdk.CreateResult[entryState], error) {
	id := sdk.GetConfig[kvConfig](ctx).Namespace + "/" + op.Inputs.Key
	switch op.Inputs.Key {
	case "partial":
		return sdk.CreateResult[entryState]{ID: id, Outputs: entryState{entryArgs: op.Inputs}}, errors.New("stored but not replicated")
	case "panic":
		panic("half way through")
	case "refused":
		return sdk.CreateResult[entryState]{}, errors.New("quota exceeded")
	case "slow":
		close(e.started)
		<-ctx.Done()
		return sdk.CreateResult[entryState]{}, context.Cause(ctx)
	}
	return sdk.CreateResult[entryState]{ID: id, Outputs: entryState{entryArgs: op.Inputs, Version: 1}}, nil
}

func (e *entry) Read(_ context.Context, op sdk.ReadOp[entryArgs, entryState]) (sdk.ReadResult[entryArgs, entryState], error) {
	if op.ID == "default/gone" {
		return sdk.ReadResult[entryArgs, entryState]{}, nil
	}
	return sdk.ReadResult[entryArgs, entryState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}

func (e *entry) Update(_ context.Context, op sdk.UpdateOp[entryArgs, entryState]) (sdk.UpdateResult[entryState], error) {
	if op.News.Value == "panic" {
		panic("half way through")
	}
	return sdk.UpdateResult[entryState]{Outputs: entryState{entryArgs: op.News, Version: op.OldOutputs.Version + 1}}, nil
}

type lookupArgs struct {
	Key string `plinth:"key"`
}

type lookupResult struct {
	Found bool `plinth:"found"`
}

func lookup(_ context.Context, a lookupArgs) (lookupResult, error) {
	return lookupResult{Found: a.Key == "a"}, nil
}

const entryType = "kv:index:Entry"

var urn = resource.NewURN("dev", "proj", "", entryType, "e")

var valueCmp = cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })

func newKV(t *testing.T) (*inproc.Provider, *entry) {
	t.Helper()
	e := &entry{started: make(chan struct{})}
	p, err := sdk.New(sdk.Info{Name: "kv", Version: "0.3.0"},
		sdk.WithConfig[kvConfig](),
		sdk.WithResource[entryArgs, entryState](entryType, e, "A stored entry."),
		sdk.WithFunction("kv:index:lookup", lookup, "Looks a key up."))
	if err != nil {
		t.Fatal(err)
	}
	return inproc.New(p), e
}

// configuredKV checks and applies an empty configuration, as the engine does.
func configuredKV(t *testing.T) (provider.Provider, *entry) {
	t.Helper()
	p, e := newKV(t)
	ctx := context.Background()
	checked, err := p.CheckConfig(ctx, provider.CheckRequest{News: resource.Object{}})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, checked.Failures)
	}
	resp, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("Configure (-want +got):\n%s", d)
	}
	return p, e
}

func TestPluginInfoAndSchema(t *testing.T) {
	p, _ := newKV(t)
	ctx := context.Background()
	info, err := p.GetPluginInfo(ctx)
	if d := cmp.Diff(provider.PluginInfo{Name: "kv", Version: "0.3.0"}, info); d != "" || err != nil {
		t.Errorf("GetPluginInfo (-want +got):\n%s %v", d, err)
	}
	resp, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	str := schema.Type{Kind: schema.TypeString}
	inputs := map[string]schema.Property{
		"key":   {Type: str, Required: true, ReplaceOnChanges: true, Description: "The key."},
		"value": {Type: str, Required: true},
		"token": {Type: str, Secret: true},
		"tags":  {Type: schema.Type{Kind: schema.TypeArray, Elem: &str}},
	}
	outputs := map[string]schema.Property{"version": {Type: schema.Type{Kind: schema.TypeInteger}, Required: true, Computed: true}}
	for k, v := range inputs {
		outputs[k] = v
	}
	want := &schema.Schema{
		Name: "kv", Version: "0.3.0",
		Config:    map[string]schema.Property{"namespace": {Type: str, Description: "Prefix of every key."}},
		Resources: map[string]schema.ResourceSchema{entryType: {Description: "A stored entry.", Inputs: inputs, Outputs: outputs}},
		Functions: map[string]schema.FunctionSchema{"kv:index:lookup": {Description: "Looks a key up.",
			Inputs:  map[string]schema.Property{"key": {Type: str, Required: true}},
			Outputs: map[string]schema.Property{"found": {Type: schema.Type{Kind: schema.TypeBool}, Required: true}}}},
	}
	if d := cmp.Diff(want, resp.Schema); d != "" {
		t.Errorf("schema (-want +got):\n%s", d)
	}
}

func TestUnconfiguredProviderRefusesWork(t *testing.T) {
	p, _ := newKV(t)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn, Inputs: resource.Object{}})
	if !errors.Is(err, sdk.ErrNotConfigured) {
		t.Errorf("err = %v", err)
	}
}

func TestCheckAndDiff(t *testing.T) {
	p, _ := configuredKV(t)
	ctx := context.Background()
	bad, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: resource.ObjectFromGo(map[string]any{"key": 1, "vaule": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	wantFailures := []provider.CheckFailure{
		{Property: "vaule", Reason: `unknown property "vaule"; did you mean "value"?`},
		{Property: "key", Reason: "expected a string, got a number"},
		{Property: "value", Reason: `missing required property "value"`},
	}
	if d := cmp.Diff(wantFailures, bad.Failures); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}

	olds := resource.ObjectFromGo(map[string]any{"key": "a", "value": "1"})
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: "default/a", OldInputs: olds, OldOutputs: olds,
		News: resource.ObjectFromGo(map[string]any{"key": "b", "value": "2"})})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"key", "value"}, ReplaceKeys: []string{"key"},
		DetailedDiff: resource.DetailedDiff{"key": {Kind: resource.DiffUpdate, Replace: true}, "value": {Kind: resource.DiffUpdate}}}
	if d := cmp.Diff(want, diff); d != "" || !diff.Replaces() {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	none, err := p.DiffConfig(ctx, provider.DiffRequest{OldInputs: resource.Object{}, News: resource.Object{}})
	if err != nil || none.Changes != provider.DiffNone {
		t.Errorf("DiffConfig = %+v, %v", none, err)
	}
}

func TestResourceLifecycle(t *testing.T) {
	p, _ := configuredKV(t)
	ctx := context.Background()
	inputs := resource.Object{"key": resource.NewString("a"), "value": resource.MakeSecret(resource.NewString("1")), "token": resource.NewString("t")}

	preview, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: inputs, Preview: true})
	wantPreview := resource.Object{"key": resource.NewString("a"), "value": resource.MakeSecret(resource.NewString("1")),
		"token": resource.NewString("t"), "version": resource.Unknown()}
	if d := cmp.Diff(provider.CreateResponse{Outputs: wantPreview}, preview, valueCmp); d != "" || err != nil {
		t.Errorf("preview (-want +got):\n%s %v", d, err)
	}

	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: inputs})
	wantOuts := resource.Object{"key": resource.NewString("a"), "value": resource.MakeSecret(resource.NewString("1")),
		"token": resource.MakeSecret(resource.NewString("t")), "version": resource.NewNumber(1)}
	if d := cmp.Diff(provider.CreateResponse{ID: "default/a", Outputs: wantOuts}, created, valueCmp); d != "" || err != nil {
		t.Errorf("Create (-want +got):\n%s %v", d, err)
	}

	read, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: created.ID, Inputs: inputs, State: created.Outputs, Private: []byte("p")})
	if err != nil || read.ID != created.ID || string(read.Private) != "p" || !read.Outputs.Equal(wantOuts) {
		t.Errorf("Read = %+v, %v", read, err)
	}
	gone, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: "default/gone", Inputs: inputs, State: created.Outputs})
	if err != nil || gone.ID != "" {
		t.Errorf("Read of a deleted entry = %+v, %v", gone, err)
	}

	news := resource.ObjectFromGo(map[string]any{"key": "a", "value": "2"})
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: news, Private: []byte("p")})
	if err != nil || updated.Outputs["version"].Number() != 2 || updated.Outputs["value"].Str() != "2" || string(updated.Private) != "p" {
		t.Errorf("Update = %+v, %v", updated, err)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: created.ID, Inputs: news, Outputs: updated.Outputs}); err != nil {
		t.Errorf("Delete: %v", err)
	}
}

func TestPartialCreateIsAnEngineInitError(t *testing.T) {
	p, _ := configuredKV(t)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn, Inputs: resource.ObjectFromGo(map[string]any{"key": "partial", "value": "v"})})
	var ie *provider.InitError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %#v, want *provider.InitError", err)
	}
	want := &provider.InitError{ID: "default/partial", Reasons: []string{"stored but not replicated"},
		Outputs: resource.ObjectFromGo(map[string]any{"key": "partial", "value": "v", "version": 0})}
	if d := cmp.Diff(want, ie, valueCmp); d != "" {
		t.Errorf("InitError (-want +got):\n%s", d)
	}
}

// TestOutcomeUnknown: a panic recovered from a Create or Update stopped
// the call at an unknown point, so the engine must not assume nothing was
// made; an error the provider returned is a definite answer.
func TestOutcomeUnknown(t *testing.T) {
	ctx := context.Background()
	create := func(key string) error {
		p, _ := configuredKV(t)
		_, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.ObjectFromGo(map[string]any{"key": key, "value": "v"})})
		return err
	}
	update := func(value string) error {
		p, _ := configuredKV(t)
		_, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: "default/k",
			OldInputs:  resource.ObjectFromGo(map[string]any{"key": "k", "value": "v"}),
			OldOutputs: resource.ObjectFromGo(map[string]any{"key": "k", "value": "v", "version": 1}),
			News:       resource.ObjectFromGo(map[string]any{"key": "k", "value": value})})
		return err
	}
	tests := map[string]struct {
		call    func() error
		unknown bool
	}{
		"panic in Create": {func() error { return create("panic") }, true},
		"panic in Update": {func() error { return update("panic") }, true},
		"refused Create":  {func() error { return create("refused") }, false},
		"partial Create":  {func() error { return create("partial") }, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.call()
			if err == nil {
				t.Fatal("the call succeeded")
			}
			if got := provider.IsOutcomeUnknown(err); got != tc.unknown {
				t.Errorf("IsOutcomeUnknown(%v) = %v, want %v", err, got, tc.unknown)
			}
		})
	}
}

func TestInvoke(t *testing.T) {
	p, _ := configuredKV(t)
	ctx := context.Background()
	got, err := p.Invoke(ctx, provider.InvokeRequest{Token: "kv:index:lookup", Args: resource.ObjectFromGo(map[string]any{"key": "a"})})
	if err != nil || !got.Return["found"].Bool() {
		t.Errorf("Invoke = %+v, %v", got, err)
	}
	bad, err := p.Invoke(ctx, provider.InvokeRequest{Token: "kv:index:lookup", Args: resource.Object{}})
	want := []provider.CheckFailure{{Property: "key", Reason: `missing required property "key"`}}
	if d := cmp.Diff(want, bad.Failures); d != "" || err != nil {
		t.Errorf("failures (-want +got):\n%s %v", d, err)
	}
}

func TestSignalCancellationStopsCallsInFlight(t *testing.T) {
	p, e := configuredKV(t)
	done := make(chan error)
	go func() {
		_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn, Inputs: resource.ObjectFromGo(map[string]any{"key": "slow", "value": "v"})})
		done <- err
	}()
	<-e.started
	if err := p.SignalCancellation(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Errorf("Create after SignalCancellation: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
