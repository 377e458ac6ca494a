package monitor_test

import (
	"context"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestStackOutputsWithoutResourceMarks: a preview of pulumi/pulumi's
// secret_outputs program exports resources, which the Node.js SDK sends,
// in a preview only, with "@isPulumiResource": true; the stack gets them
// without it, at any depth, so that they equal what the update recorded
// and the preview after an up finds no output changed (plinth's preview
// --detailed-exitcode said 2).
func TestStackOutputsWithoutResourceMarks(t *testing.T) {
	fake, _, c, _, _ := client(t)
	registerRoot(t, c)
	res := map[string]any{"@isPulumiResource": true, "id": "1", "urn": "urn:pulumi:dev::proj::t:m:R::r"}
	sent := map[string]any{"r": res, "list": []any{res}, "plain": map[string]any{"id": "2"}}
	if _, err := c.RegisterResourceOutputs(context.Background(), &pulumirpc.RegisterResourceOutputsRequest{Urn: root, Outputs: obj(t, sent)}); err != nil {
		t.Fatal(err)
	}
	bare := resource.NewObject(resource.Object{"id": resource.NewString("1"), "urn": resource.NewString("urn:pulumi:dev::proj::t:m:R::r")})
	want := resource.Object{"r": bare, "list": resource.NewArray(bare), "plain": resource.NewObject(resource.Object{"id": resource.NewString("2")})}
	if !fake.stack.Equal(want) {
		t.Errorf("stack outputs = %v, want %v", fake.stack, want)
	}
}
