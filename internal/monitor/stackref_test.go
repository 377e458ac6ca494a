package monitor_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeStacks is a StackReader over stacks held in memory, keyed
// "project/stack"; it records what it was asked.
type fakeStacks struct {
	stacks map[string]resource.Object
	asked  []string
}

func (f *fakeStacks) StackOutputs(_ context.Context, project, stack string) (resource.Object, error) {
	f.asked = append(f.asked, project+"/"+stack)
	if project == "" {
		project = "proj"
	}
	o, ok := f.stacks[project+"/"+stack]
	if !ok {
		return nil, errors.New("no such stack")
	}
	return o, nil
}

// TestStackReference: reading a pulumi:pulumi:StackReference answers the
// referenced stack's outputs from the StackReader, secrets kept secret and
// named in secretOutputNames, without the engine; a resource that depends
// on the reference is registered without that dependency; a stack that
// cannot be read is refused, naming it.
func TestStackReference(t *testing.T) {
	fake := &fakeMonitor{outputs: map[resource.URN]resource.Object{}}
	stacks := &fakeStacks{stacks: map[string]resource.Object{"net/prod": {
		"vpc": resource.NewString("vpc-1"), "key": resource.MakeSecret(resource.NewString("hush")),
		"nested": resource.NewObject(resource.Object{"pw": resource.MakeSecret(resource.NewString("x"))}),
	}}}
	srv, c, _, _ := serve(t, fake, monitor.Config{Stack: "dev", Project: "proj", Stacks: stacks})
	ctx := context.Background()
	registerRoot(t, c)
	resp, err := c.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Type: monitor.StackReferenceType, Name: "ref", Id: "acme/net/prod", Parent: root,
		Properties: obj(t, map[string]any{"name": "acme/net/prod"}), AcceptSecrets: true, AcceptResources: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pulumiwire.DecodeObject(resp.GetProperties(), pulumiwire.Full())
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"name": resource.NewString("acme/net/prod"), "outputs": resource.NewObject(stacks.stacks["net/prod"]),
		"secretOutputNames": resource.NewArray(resource.NewString("key"), resource.NewString("nested"))}
	if !want.Equal(got) {
		t.Errorf("stack reference = %v, want %v", got, want)
	}
	refURN := "urn:pulumi:dev::proj::pulumi:pulumi:StackReference::ref"
	if diff := cmp.Diff(refURN, resp.GetUrn()); diff != "" {
		t.Errorf("URN (-want +got):\n%s", diff)
	}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true, Parent: root,
		Object: obj(t, map[string]any{}), Dependencies: []string{refURN}}); err != nil {
		t.Fatal(err)
	}
	if len(fake.regs) != 1 || len(fake.regs[0].Dependencies) != 0 {
		t.Errorf("the engine was given %+v, want one registration, the pet, with no dependencies", fake.regs)
	}

	_, err = c.ReadResource(ctx, &pulumirpc.ReadResourceRequest{Type: monitor.StackReferenceType, Name: "gone", Id: "gone"})
	if err == nil || !strings.Contains(err.Error(), `reading stack "gone": no such stack`) {
		t.Errorf("error = %v, want one naming the stack", err)
	}
	if diff := cmp.Diff([]string{"net/prod", "/gone"}, stacks.asked); diff != "" {
		t.Errorf("stacks read (-want +got):\n%s", diff)
	}
	if srv.Err() == nil {
		t.Error("the refusal is not the operation's error")
	}
}
