package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestNotConfigured(t *testing.T) {
	p := newToys(t, nil)
	ctx := context.Background()
	_, checkErr := p.Check(ctx, provider.CheckRequest{URN: basicURN("a")})
	_, createErr := p.Create(ctx, provider.CreateRequest{URN: basicURN("a")})
	_, invokeErr := p.Invoke(ctx, provider.InvokeRequest{Token: "toys:index:greet"})
	for _, err := range []error{checkErr, createErr, invokeErr} {
		if !errors.Is(err, provider.ErrNotConfigured) {
			t.Errorf("err = %v, want ErrNotConfigured", err)
		}
	}
	if createErr.Error() != "provider toys cannot Create before it is configured: the provider is not configured" {
		t.Errorf("message: %v", createErr)
	}
}

func TestUnknownResourceType(t *testing.T) {
	p := configured(t, nil)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: resource.NewURN("dev", "proj", "", "toys:index:Nope", "a")})
	want := `provider toys has no resource type "toys:index:Nope" (its types are toys:index:Basic, toys:index:Full)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestPluginInfo(t *testing.T) {
	got, err := newToys(t, nil).GetPluginInfo(context.Background(), provider.GetPluginInfoRequest{})
	if d := cmp.Diff(provider.GetPluginInfoResponse{Name: "toys", Version: "1.2.3"}, got); d != "" || err != nil {
		t.Errorf("GetPluginInfo (-want +got):\n%s %v", d, err)
	}
}

func TestLifecycleWithDefaults(t *testing.T) {
	p := configured(t, nil)
	ctx := context.Background()
	urn := basicURN("a")
	inputs := resource.Object{"name": str("rex"), "size": num(3), "password": str("pw"), "labels": secret(resource.NewObject(resource.Object{"k": str("v")}))}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	wantOuts := resource.Object{"name": str("rex"), "size": num(3), "password": secret(str("pw")),
		"labels": secret(resource.NewObject(resource.Object{"k": str("v")})),
		"serial": str("hello-rex"), "checksum": secret(str("sum"))}
	if d := cmp.Diff(provider.CreateResponse{ID: "toy-rex", Outputs: wantOuts}, created, valueCmp); d != "" {
		t.Errorf("Create (-want +got):\n%s", d)
	}

	read, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: created.ID, Inputs: inputs, State: created.Outputs})
	if d := cmp.Diff(provider.ReadResponse{ID: "toy-rex", Inputs: inputs, Outputs: wantOuts}, read, valueCmp); d != "" || err != nil {
		t.Errorf("Read (-want +got):\n%s %v", d, err)
	}

	news := resource.Object{"name": str("rex"), "size": num(4)}
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: news})
	wantUpd := resource.Object{"name": str("rex"), "size": num(4), "serial": str("hello-rex"), "checksum": secret(str("sum"))}
	if d := cmp.Diff(wantUpd, updated.Outputs, valueCmp); d != "" || err != nil {
		t.Errorf("Update (-want +got):\n%s %v", d, err)
	}

	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: created.ID, Inputs: news, Outputs: updated.Outputs}); err != nil {
		t.Errorf("Delete: %v", err)
	}
	_, err = p.Read(ctx, provider.ReadRequest{URN: urn, ID: "toy-rex"})
	if err == nil || err.Error() != "resource type toys:index:Basic cannot be imported: the provider does not implement Read for it" {
		t.Errorf("import: %v", err)
	}
}

func TestConfigReachesResourceCode(t *testing.T) {
	p := newToys(t, nil)
	ctx := context.Background()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: obj(map[string]any{"greeting": "hey"})}); err != nil {
		t.Fatal(err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: basicURN("a"), Inputs: obj(map[string]any{"name": "rex"})})
	if err != nil || created.Outputs["serial"].Str() != "hey-rex" {
		t.Errorf("serial = %v, %v", created.Outputs["serial"], err)
	}
	inv, err := p.Invoke(ctx, provider.InvokeRequest{Token: "toys:index:greet", Args: obj(map[string]any{"who": "bob", "times": 2})})
	if err != nil || inv.Return["text"].Str() != "hey bob!hey bob!" {
		t.Errorf("greet = %v, %v", inv, err)
	}
}

func TestExactLargeIntegers(t *testing.T) {
	p := configured(t, nil)
	big, err := resource.ParseNumber("9007199254740993") // 2^53+1: a double cannot hold it
	if err != nil {
		t.Fatal(err)
	}
	created, err := p.Create(context.Background(), provider.CreateRequest{URN: basicURN("a"),
		Inputs: resource.Object{"name": str("rex"), "big": big}})
	if err != nil {
		t.Fatal(err)
	}
	if got := created.Outputs["big"].NumberLiteral(); got != "9007199254740993" {
		t.Errorf("big = %s", got)
	}
}

func TestDefaultPreview(t *testing.T) {
	p := configured(t, nil)
	ctx := context.Background()
	inputs := resource.Object{"name": resource.Unknown(), "size": num(3), "password": secret(str("pw"))}
	created, err := p.Create(ctx, provider.CreateRequest{URN: basicURN("a"), Inputs: inputs, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"name": resource.Unknown(), "size": num(3), "password": secret(str("pw")),
		"serial": resource.Unknown(), "checksum": secret(resource.Unknown())}
	if d := cmp.Diff(provider.CreateResponse{Outputs: want}, created, valueCmp); d != "" {
		t.Errorf("preview Create (-want +got):\n%s", d)
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: basicURN("a"), ID: "toy-rex", Preview: true,
		OldOutputs: obj(map[string]any{"name": "rex", "serial": "s", "checksum": "c"}), News: inputs})
	if d := cmp.Diff(want, updated.Outputs, valueCmp); d != "" || err != nil {
		t.Errorf("preview Update (-want +got):\n%s %v", d, err)
	}
}

func TestPreviewers(t *testing.T) {
	var seen provider.CreateOp[toyArgs]
	full := &fullToy{PreviewCreateF: func(_ context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
		seen = op
		return provider.CreateResult[toyState]{Outputs: toyState{toyArgs: op.Inputs, Serial: "known-early"}, Unknowns: []string{"checksum"}}, nil
	}}
	p := configured(t, full)
	inputs := resource.Object{"name": resource.Unknown(), "size": num(5)}
	created, err := p.Create(context.Background(), provider.CreateRequest{URN: fullURN("a"), Inputs: inputs, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"name": resource.Unknown(), "size": num(5), "serial": str("known-early"), "checksum": secret(resource.Unknown())}
	if d := cmp.Diff(want, created.Outputs, valueCmp); d != "" {
		t.Errorf("outputs (-want +got):\n%s", d)
	}
	if !seen.Preview || !cmp.Equal(seen.Unknowns, []string{"name"}) || seen.Inputs.Size != 5 {
		t.Errorf("previewer saw %+v", seen)
	}

	updated, err := p.Update(context.Background(), provider.UpdateRequest{URN: fullURN("a"), ID: "x", Preview: true,
		OldInputs: obj(map[string]any{"name": "rex", "size": 1}), OldOutputs: obj(map[string]any{"name": "rex", "size": 1, "serial": "s1", "checksum": "c"}),
		News: obj(map[string]any{"name": "rex", "size": 2})})
	wantUpd := resource.Object{"name": str("rex"), "size": num(2), "serial": str("s1"), "checksum": secret(str("c"))}
	if d := cmp.Diff(wantUpd, updated.Outputs, valueCmp); d != "" || err != nil {
		t.Errorf("update preview (-want +got):\n%s %v", d, err)
	}
}

func TestPartialFailuresBecomeInitErrors(t *testing.T) {
	boom := errors.New("health check failed")
	full := &fullToy{
		CreateF: func(_ context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
			if op.Inputs.Name == "half" {
				return provider.CreateResult[toyState]{ID: "half-1", Outputs: toyState{toyArgs: op.Inputs, Serial: "s"}}, boom
			}
			return provider.CreateResult[toyState]{}, boom
		},
		UpdateF: func(_ context.Context, op provider.UpdateOp[toyArgs, toyState]) (provider.UpdateResult[toyState], error) {
			if op.News.Name == "half" {
				return provider.UpdateResult[toyState]{Outputs: toyState{toyArgs: op.News, Serial: "s2"}}, boom
			}
			return provider.UpdateResult[toyState]{}, boom
		},
	}
	p := configured(t, full)
	ctx := context.Background()
	_, err := p.Create(ctx, provider.CreateRequest{URN: fullURN("a"), Inputs: obj(map[string]any{"name": "half", "size": 1})})
	var ie *provider.InitError
	if !errors.As(err, &ie) {
		t.Fatalf("Create err = %v, want an InitError", err)
	}
	want := &provider.InitError{ID: "half-1", Outputs: resource.Object{"name": str("half"), "size": num(1), "serial": str("s"), "checksum": secret(str(""))},
		Reasons: []string{"health check failed"}}
	if d := cmp.Diff(want, ie, valueCmp); d != "" {
		t.Errorf("InitError (-want +got):\n%s", d)
	}
	if _, err := p.Create(ctx, provider.CreateRequest{URN: fullURN("a"), Inputs: obj(map[string]any{"name": "none"})}); !errors.Is(err, boom) || errors.As(err, &ie) {
		t.Errorf("Create without ID: err = %#v", err)
	}

	_, err = p.Update(ctx, provider.UpdateRequest{URN: fullURN("a"), ID: "u-1", News: obj(map[string]any{"name": "half"})})
	if !errors.As(err, &ie) || ie.ID != "u-1" || ie.Outputs["serial"].Str() != "s2" {
		t.Errorf("Update err = %v", err)
	}
	_, err = p.Update(ctx, provider.UpdateRequest{URN: fullURN("a"), ID: "u-1", News: obj(map[string]any{"name": "none"})})
	if !errors.Is(err, boom) || errors.As(err, &ie) {
		t.Errorf("Update without outputs: err = %#v", err)
	}
}

func TestCreateWithoutIDIsAnError(t *testing.T) {
	full := &fullToy{CreateF: func(context.Context, provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
		return provider.CreateResult[toyState]{}, nil
	}}
	_, err := configured(t, full).Create(context.Background(), provider.CreateRequest{URN: fullURN("a"), Inputs: obj(map[string]any{"name": "x"})})
	if err == nil || !strings.Contains(err.Error(), "returned no ID") {
		t.Errorf("err = %v", err)
	}
}

func TestReadGoneAndImport(t *testing.T) {
	full := &fullToy{ReadF: func(_ context.Context, op provider.ReadOp[toyArgs, toyState]) (provider.ReadResult[toyArgs, toyState], error) {
		switch {
		case op.ID == "gone":
			return provider.ReadResult[toyArgs, toyState]{}, nil
		case op.Import:
			in := toyArgs{Name: op.ID, Size: 7}
			return provider.ReadResult[toyArgs, toyState]{ID: op.ID, Inputs: in, Outputs: toyState{toyArgs: in, Serial: "imp"}}, nil
		}
		return provider.ReadResult[toyArgs, toyState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
	}}
	p := configured(t, full)
	ctx := context.Background()
	gone, err := p.Read(ctx, provider.ReadRequest{URN: fullURN("a"), ID: "gone", Inputs: obj(map[string]any{"name": "x"})})
	if err != nil || gone.ID != "" {
		t.Errorf("Read gone = %+v, %v", gone, err)
	}
	imp, err := p.Read(ctx, provider.ReadRequest{URN: fullURN("a"), ID: "rex"})
	want := provider.ReadResponse{ID: "rex", Inputs: obj(map[string]any{"name": "rex", "size": 7}),
		Outputs: resource.Object{"name": str("rex"), "size": num(7), "serial": str("imp"), "checksum": secret(str(""))}}
	if d := cmp.Diff(want, imp, valueCmp); d != "" || err != nil {
		t.Errorf("import (-want +got):\n%s %v", d, err)
	}
	secretIn := resource.Object{"name": secret(str("rex")), "size": num(1)}
	kept, err := p.Read(ctx, provider.ReadRequest{URN: fullURN("a"), ID: "rex", Inputs: secretIn, State: secretIn})
	if err != nil || !kept.Inputs["name"].IsSecret() || !kept.Outputs["name"].IsSecret() {
		t.Errorf("secret inputs lost their mark on Read: %+v %v", kept, err)
	}
}

func TestCancelStopsCallsInFlight(t *testing.T) {
	started := make(chan struct{})
	full := &fullToy{CreateF: func(ctx context.Context, _ provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
		close(started)
		<-ctx.Done()
		return provider.CreateResult[toyState]{}, context.Cause(ctx)
	}}
	p := configured(t, full)
	done := make(chan error)
	go func() {
		_, err := p.Create(context.Background(), provider.CreateRequest{URN: fullURN("a"), Inputs: obj(map[string]any{"name": "x"})})
		done <- err
	}()
	<-started
	if _, err := p.Cancel(context.Background(), provider.CancelRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "asked to cancel") {
		t.Errorf("Create after Cancel: %v", err)
	}
}

func TestTimeoutBoundsTheCall(t *testing.T) {
	var deadline bool
	full := &fullToy{DeleteF: func(ctx context.Context, _ provider.DeleteOp[toyArgs, toyState]) error {
		_, deadline = ctx.Deadline()
		return nil
	}}
	p := configured(t, full)
	if _, err := p.Delete(context.Background(), provider.DeleteRequest{URN: fullURN("a"), ID: "x", Timeout: time.Hour}); err != nil || !deadline {
		t.Errorf("Delete with timeout: deadline=%v err=%v", deadline, err)
	}
}

func TestInvoke(t *testing.T) {
	p := configured(t, nil)
	ctx := context.Background()
	tests := map[string]struct {
		args resource.Object
		want provider.InvokeResponse
	}{
		"defaults": {obj(map[string]any{"who": "bob"}),
			provider.InvokeResponse{Return: resource.Object{"text": str("hello bob!")}}},
		"secret in, secret out": {resource.Object{"who": secret(str("bob"))},
			provider.InvokeResponse{Return: resource.Object{"text": secret(str("hello bob!"))}}},
		"unknown argument": {resource.Object{"who": resource.Unknown()},
			provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: "who", Reason: "the value is not known yet; a function needs known arguments"}}}},
		"bad arguments": {obj(map[string]any{"times": "x"}),
			provider.InvokeResponse{Failures: []provider.CheckFailure{
				{Property: "who", Reason: `missing required property "who"`},
				{Property: "times", Reason: "expected an integer, got a string"}}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := p.Invoke(ctx, provider.InvokeRequest{Token: "toys:index:greet", Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got, valueCmp); d != "" {
				t.Errorf("Invoke (-want +got):\n%s", d)
			}
		})
	}
	_, err := p.Invoke(ctx, provider.InvokeRequest{Token: "toys:index:nope"})
	if err == nil || err.Error() != `provider toys has no function "toys:index:nope" (its functions are toys:index:greet)` {
		t.Errorf("unknown function: %v", err)
	}
}

func TestAuthorNamedSecrets(t *testing.T) {
	var seen []string
	full := &fullToy{CreateF: func(_ context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
		seen = op.Secrets
		res := provider.CreateResult[toyState]{ID: "x", Outputs: toyState{toyArgs: op.Inputs, Serial: "derived from " + op.Inputs.Name}}
		if len(op.Secrets) > 0 {
			res.Secrets = []string{"serial"}
		}
		return res, nil
	}}
	p := configured(t, full)
	created, err := p.Create(context.Background(), provider.CreateRequest{URN: fullURN("a"),
		Inputs: resource.Object{"name": str("n"), "labels": resource.NewObject(resource.Object{"k": secret(str("v"))})}})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(seen, []string{"labels"}) {
		t.Errorf("op.Secrets = %v", seen)
	}
	if !created.Outputs["serial"].IsSecret() || !created.Outputs["labels"].IsSecret() || created.Outputs["name"].IsSecret() {
		t.Errorf("outputs = %v", created.Outputs)
	}
}
