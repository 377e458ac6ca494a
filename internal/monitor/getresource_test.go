package monitor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// recordingMonitor is a fakeMonitor whose state records some resources.
type recordingMonitor struct {
	*fakeMonitor
	recorded map[resource.URN]engine.RecordedResource
}

func (r recordingMonitor) Lookup(urn resource.URN) (engine.RecordedResource, bool) {
	rec, ok := r.recorded[urn]
	return rec, ok
}

// TestGetResource: the getResource invoke answers a recorded resource's
// URN, ID and outputs (secrets kept secret); a URN the state does not
// record is refused, naming it.
func TestGetResource(t *testing.T) {
	const pet = "urn:pulumi:dev::proj::plinth:random:Pet::p"
	mon := recordingMonitor{&fakeMonitor{outputs: map[resource.URN]resource.Object{}}, map[resource.URN]engine.RecordedResource{
		pet: {URN: pet, ID: "pet-1", Custom: true, Outputs: resource.Object{
			"id": resource.NewString("pet-1"), "length": resource.NewNumber(2), "key": resource.MakeSecret(resource.NewString("hush"))}},
	}}
	srv, c, _, _ := serve(t, mon, monitor.Config{Stack: "dev", Project: "proj"})
	ctx := context.Background()
	args := obj(t, map[string]any{"urn": pet})
	resp, err := c.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "pulumi:pulumi:getResource", Args: args, AcceptResources: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pulumiwire.DecodeObject(resp.GetReturn(), pulumiwire.Full())
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"urn": resource.NewString(pet), "id": resource.NewString("pet-1"), "state": resource.NewObject(resource.Object{
		"id": resource.NewString("pet-1"), "length": resource.NewNumber(2), "key": resource.MakeSecret(resource.NewString("hush"))})}
	if !want.Equal(got) {
		t.Errorf("getResource = %v, want %v", got, want)
	}
	if diff := cmp.Diff(0, len(mon.invokes)); diff != "" {
		t.Errorf("invokes passed to the engine (-want +got):\n%s", diff)
	}

	const missing = "urn:pulumi:dev::proj::plinth:random:Pet::gone"
	_, err = c.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "pulumi:pulumi:getResource", Args: obj(t, map[string]any{"urn": missing})})
	if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "stack dev records no such resource") {
		t.Errorf("error = %v, want NotFound naming %s", err, missing)
	}
	if srv.Err() == nil {
		t.Error("the refusal is not the operation's error")
	}
}
