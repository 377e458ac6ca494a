package pulumirpc

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func configured(t *testing.T) *Provider {
	t.Helper()
	p := launch(t, "", &logSink{})
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConstruct: every field of a ConstructRequest reaches the plugin, and
// its URN, outputs and output dependencies come back.
func TestConstruct(t *testing.T) {
	p := configured(t)
	dep := resource.URN("urn:pulumi:dev::proj::fault:index:Thing::a")
	resp, err := p.Construct(context.Background(), provider.ConstructRequest{
		Info: provider.RunInfo{MonitorAddress: "127.0.0.1:1234", Project: "proj", Stack: "dev",
			Config: map[string]string{"fault:region": "eu"}},
		Type: "fault:index:Comp", Name: "c", Parent: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
		Inputs:            resource.Object{"value": resource.NewString("v")},
		InputDependencies: provider.Dependencies{"value": {dep}},
		Options: provider.ComponentOptions{Protect: true, DependsOn: []resource.URN{dep}, Aliases: []resource.URN{"urn:old"},
			Providers: map[string]string{"fault": "urn:p::id"}, CustomTimeouts: provider.CustomTimeouts{Create: time.Minute}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.ConstructResponse{
		URN: "urn:pulumi:dev::proj::fault:index:Comp::c",
		Outputs: resource.ObjectFromGo(map[string]any{"value": "v", "seen": map[string]any{
			"monitor": "127.0.0.1:1234", "project": "proj", "stack": "dev", "config": "eu",
			"parent": "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", "protect": true,
			"dependsOn": string(dep), "aliases": []any{"urn:old"}, "providers": "urn:p::id", "deps": string(dep), "timeout": "1m0s",
		}}),
		OutputDependencies: provider.Dependencies{"value": {dep}},
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("Construct (-want +got):\n%s", diff)
	}
}

// TestCall: a method's arguments and the monitor's address reach the
// plugin; its result and dependencies come back.
func TestCall(t *testing.T) {
	p := configured(t)
	dep := resource.URN("urn:pulumi:dev::proj::fault:index:Thing::a")
	resp, err := p.Call(context.Background(), provider.CallRequest{
		Info:  provider.RunInfo{MonitorAddress: "127.0.0.1:1234"},
		Token: "fault:index:Comp/m", Args: resource.Object{"x": resource.NewNumber(1)},
		ArgDependencies: provider.Dependencies{"x": {dep}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.CallResponse{
		Return:             resource.ObjectFromGo(map[string]any{"x": 1, "monitor": "127.0.0.1:1234"}),
		ReturnDependencies: provider.Dependencies{"x": {dep}},
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("Call (-want +got):\n%s", diff)
	}
}

// TestNoComponents: the Fake without ConstructF answers ErrNoComponents.
func TestNoComponents(t *testing.T) {
	_, err := (&provider.Fake{}).Construct(context.Background(), provider.ConstructRequest{Type: "x:index:C"})
	if !errors.Is(err, provider.ErrNoComponents) {
		t.Errorf("Construct on a Fake = %v, want ErrNoComponents", err)
	}
}
