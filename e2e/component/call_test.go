package component_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestComponentMethod calls the plugin's component method out of process
// through the engine's pulumirpc adapter: the method gets its component
// (__self__) and arguments and its result comes back. (YAML programs have
// no syntax for calling a method; a Pulumi program's call reaches the
// adapter through the resource monitor's Call.)
func TestComponentMethod(t *testing.T) {
	ctx := context.Background()
	p, err := pulumirpc.Launch(ctx, pulumirpc.Config{Name: "comp", Path: filepath.Join(pluginDir, "pulumi-resource-comp")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		t.Fatal(err)
	}
	resp, err := p.Call(ctx, provider.CallRequest{Token: "comp:index:Site/url",
		Args: resource.Object{"__self__": resource.NewString("web"), "item": resource.NewString("a")}})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"url": resource.NewString("https://a.example/web")}
	if diff := cmp.Diff(want, resp.Return, cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("the method returned (-want +got):\n%s", diff)
	}
}
