package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

type kitArgs struct {
	Size int `plinth:"size" doc:"How big."`
}

type kitOutputs struct {
	Made []string `plinth:"made"`
}

// stubContext is a ComponentContext that records registrations.
type stubContext struct{ names []string }

func (c *stubContext) URN() resource.URN { return "urn:pulumi:dev::p::kit:index:Set::s" }
func (c *stubContext) DryRun() bool      { return false }
func (c *stubContext) Register(_ context.Context, typ, name string, _ resource.Object, _ ...provider.RegisterOption) (provider.Registered, error) {
	c.names = append(c.names, typ+" "+name)
	return provider.Registered{URN: resource.URN("urn:" + name), ID: "id-" + name}, nil
}

// TestComponent: a component is IsComponent in the schema with its inputs
// and outputs; Construct runs it with the context; a panic becomes a
// PanicError; bad declarations are refused.
func TestComponent(t *testing.T) {
	build := provider.ComponentFunc(func(ctx context.Context, c provider.ComponentContext, in resource.Object) (resource.Object, error) {
		if in["size"].Number() < 0 {
			panic("negative size")
		}
		r, err := c.Register(ctx, "kit:index:Part", "one", resource.Object{})
		return resource.Object{"made": resource.NewArray(resource.NewString(r.ID))}, err
	})
	p, err := provider.New(provider.Info{Name: "kit"}, provider.WithComponent[kitArgs, kitOutputs]("kit:index:Set", build, "A set."))
	if err != nil {
		t.Fatal(err)
	}
	sch, _ := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	rs := sch.Schema.Resources["kit:index:Set"]
	if !rs.IsComponent || rs.Inputs["size"].Type.Kind != provider.TypeInteger || rs.Outputs["made"].Type.Kind != provider.TypeArray {
		t.Errorf("the component's schema is %+v", rs)
	}
	ctor := p.(provider.Constructor)
	c := &stubContext{}
	resp, err := ctor.Construct(context.Background(), provider.ConstructRequest{Type: "kit:index:Set", Name: "s", Inputs: resource.Object{"size": resource.NewNumber(1)}, Context: c})
	if err != nil || resp.Outputs["made"].Array()[0].Str() != "id-one" || len(c.names) != 1 {
		t.Errorf("Construct = %v, %v; registered %v", resp, err, c.names)
	}
	_, err = ctor.Construct(context.Background(), provider.ConstructRequest{Type: "kit:index:Set", Name: "s", Inputs: resource.Object{"size": resource.NewNumber(-1)}, Context: c})
	var pe *provider.PanicError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "negative size") {
		t.Errorf("a panicking component gave %v, want a PanicError", err)
	}
	for name, opt := range map[string]provider.Option{
		"other package": provider.WithComponent[kitArgs, kitOutputs]("other:index:Set", build, ""),
		"nil":           provider.WithComponent[kitArgs, kitOutputs]("kit:index:Set", nil, ""),
		"method token":  provider.WithMethod("kit:index:Set", func(context.Context, resource.Value, resource.Object) (resource.Object, error) { return nil, nil }, ""),
	} {
		if _, err := provider.New(provider.Info{Name: "kit"}, opt); err == nil {
			t.Errorf("%s: New accepted it", name)
		}
	}
}
