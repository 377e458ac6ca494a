package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// panics fails with a real runtime error (an index out of range), not a
// panic(string): the kind of panic a provider's bug raises.
func panics(what string) {
	var counts []int
	counts[len(what)]++
}

func TestPanicsAreRecovered(t *testing.T) {
	full := &fullToy{
		CreateF: func(context.Context, provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
			panics("create")
			return provider.CreateResult[toyState]{}, nil
		},
		ReadF: func(context.Context, provider.ReadOp[toyArgs, toyState]) (provider.ReadResult[toyArgs, toyState], error) {
			panic("read")
		},
		UpdateF: func(context.Context, provider.UpdateOp[toyArgs, toyState]) (provider.UpdateResult[toyState], error) {
			panic("update")
		},
		DeleteF: func(context.Context, provider.DeleteOp[toyArgs, toyState]) error { panic("delete") },
		CheckF: func(context.Context, provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error) {
			panic("check")
		},
		DiffF: func(context.Context, provider.DiffOp[toyArgs, toyState]) (provider.DiffResult, error) { panic("diff") },
	}
	p := configured(t, full)
	ctx := context.Background()
	urn := fullURN("a")
	in := obj(map[string]any{"name": "x"})
	calls := map[string]func() error{
		"Create": func() error { _, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: in}); return err },
		"Read":   func() error { _, err := p.Read(ctx, provider.ReadRequest{URN: urn, ID: "x", Inputs: in}); return err },
		"Update": func() error { _, err := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: "x", News: in}); return err },
		"Delete": func() error { _, err := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: "x"}); return err },
		"Check":  func() error { _, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: in}); return err },
		"Diff":   func() error { _, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: "x", News: in}); return err },
	}
	for method, call := range calls {
		t.Run(method, func(t *testing.T) {
			var pe *provider.PanicError
			if err := call(); !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a PanicError", err)
			}
			want := &provider.PanicError{Provider: "toys", Method: method, URN: urn}
			if d := cmp.Diff(want, pe, cmpopts.IgnoreFields(provider.PanicError{}, "Value", "Stack")); d != "" {
				t.Errorf("PanicError (-want +got):\n%s", d)
			}
			if len(pe.Stack) == 0 || !strings.Contains(pe.Error(), "provider toys panicked in "+method+" for "+string(urn)) {
				t.Errorf("message %q, stack %d bytes", pe.Error(), len(pe.Stack))
			}
		})
	}
}

type boomArgs struct{}

type panickyConfig struct {
	Mode string `plinth:"mode,optional"`
}

func (c *panickyConfig) Configure(context.Context) error {
	switch c.Mode {
	case "panic":
		panic("configure")
	case "fail":
		return errors.New("credentials rejected")
	}
	return nil
}

func TestPanicsInFunctionsAndConfigure(t *testing.T) {
	p, err := provider.New(provider.Info{Name: "boom"},
		provider.WithConfig[panickyConfig](),
		provider.WithFunction("boom:index:explode", func(context.Context, boomArgs) (boomArgs, error) { panic("kaboom") }, ""))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var pe *provider.PanicError
	_, err = p.Configure(ctx, provider.ConfigureRequest{Inputs: obj(map[string]any{"mode": "panic"})})
	if !errors.As(err, &pe) || pe.Method != "Configure" {
		t.Errorf("Configure panic: %v", err)
	}
	_, err = p.Configure(ctx, provider.ConfigureRequest{Inputs: obj(map[string]any{"mode": "fail"})})
	if err == nil || err.Error() != "configuring provider boom: credentials rejected" {
		t.Errorf("Configure failure: %v", err)
	}
	if _, err := p.Invoke(ctx, provider.InvokeRequest{Token: "boom:index:explode"}); !errors.Is(err, provider.ErrNotConfigured) {
		t.Errorf("a failed Configure must leave the provider unconfigured: %v", err)
	}
	// Unknown configuration in a preview skips the Configurer.
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{"mode": resource.Unknown()}, Preview: true}); err != nil {
		t.Fatalf("Configure with unknowns: %v", err)
	}
	_, err = p.Invoke(ctx, provider.InvokeRequest{Token: "boom:index:explode"})
	if !errors.As(err, &pe) || pe.Method != "Invoke" || pe.URN != "boom:index:explode" || pe.Value != "kaboom" {
		t.Errorf("Invoke panic: %#v", err)
	}
}
