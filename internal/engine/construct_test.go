package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// registerNow registers through mon and waits for the result.
func registerNow(mon engine.Monitor, reg engine.Registration) (engine.Registered, error) {
	ch := make(chan struct {
		r engine.Registered
		e error
	}, 1)
	mon.Register(reg, func(r engine.Registered, err error) {
		ch <- struct {
			r engine.Registered
			e error
		}{r, err}
	})
	res := <-ch
	return res.r, res.e
}

// componentHarness is a harness whose "pkg" provider constructs
// pkg:index:Comp: the component and one child, <name>-child, with the
// component's "size" input, through the monitor the engine serves.
func componentHarness(t *testing.T) (*harness, *int) {
	h := newHarness(t)
	var mon engine.Monitor
	served := new(int)
	h.opts = func(o *engine.Options) {
		o.ServeMonitor = func(m engine.Monitor) (string, func(), error) {
			mon = m
			*served++
			return "127.0.0.1:0", func() {}, nil
		}
	}
	h.fake.ConstructF = func(_ context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
		comp, err := registerNow(mon, engine.Registration{Type: req.Type, Name: req.Name, Parent: req.Parent, Inputs: resource.Object{}})
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		child, err := registerNow(mon, engine.Registration{Type: "pkg:index:Thing", Name: req.Name + "-child", Custom: true,
			Parent: comp.URN, Inputs: resource.Object{"size": req.Inputs["size"]}, Provider: req.Options.Providers["pkg"]})
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		return provider.ConstructResponse{URN: comp.URN, Outputs: resource.Object{"childOut": child.Outputs["out"]}}, nil
	}
	return h, served
}

func remote(r *engine.Registration) { r.Remote = true }

// TestConstructComponent: a component a provider constructs has its child
// created, updated and deleted with it, under it in the state, and its
// outputs reach the program.
func TestConstructComponent(t *testing.T) {
	h, served := componentHarness(t)
	comp := func(size int) prog {
		return prog{{name: "c", typ: "pkg:index:Comp", inputs: map[string]any{"size": size}, opt: remote}}
	}
	h.mustUp(comp(1))
	diffStrings(t, "resources after create", []string{"c", "c-child"}, h.names())
	if got, want := h.get("c-child").Parent, h.get("c").URN; got != want {
		t.Errorf("child's parent = %s, want the component %s", got, want)
	}
	if *served != 1 {
		t.Errorf("the monitor was started %d times, want once", *served)
	}
	h.mustUp(comp(2))
	diffStrings(t, "steps of an edit", []string{"update c-child"}, h.ops())
	h.mustUp(prog{})
	diffStrings(t, "resources after removal", nil, h.names())
	diffStrings(t, "world after removal", nil, h.world.ids())
}

// TestConstructOutputs: the program sees the component's outputs.
func TestConstructOutputs(t *testing.T) {
	h, _ := componentHarness(t)
	var got engine.Registered
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		var err error
		got, err = registerNow(mon, engine.Registration{Type: "pkg:index:Comp", Name: "c", Remote: true, Inputs: resource.Object{"size": resource.NewNumber(1)}})
		return err
	})
	h.mustUp(p)
	if out := got.Outputs["childOut"]; !strings.HasPrefix(out.Str(), "out-c-child") {
		t.Errorf("component outputs = %v, want childOut from the child", got.Outputs)
	}
}

// TestConstructChildFails: a child that fails fails the update, once
// (not again as the component's Construct, which relays it), and the
// state stays integral (the harness verifies it after every write).
func TestConstructChildFails(t *testing.T) {
	h, _ := componentHarness(t)
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.URN.Name() == "c-child" && !req.Preview {
			return provider.CreateResponse{}, errors.New("boom")
		}
		return create(ctx, req)
	}
	_, err := h.up(prog{{name: "c", typ: "pkg:index:Comp", inputs: map[string]any{"size": 1}, opt: remote}})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("update error = %v, want the child's failure", err)
	}
	diffStrings(t, "resources after the failure", []string{"c"}, h.names())
	var oe *engine.OperationError
	if !errors.As(err, &oe) || len(oe.Errs) != 1 || !strings.Contains(oe.Errs[0].Error(), "c-child") {
		t.Errorf("update error = %v, want the child's failure reported once, under the child", err)
	}
}

// TestConstructWithoutMonitor: without ServeMonitor a remote component is
// refused with a clear error.
func TestConstructWithoutMonitor(t *testing.T) {
	h := newHarness(t)
	_, err := h.up(prog{{name: "c", typ: "pkg:index:Comp", opt: remote}})
	if err == nil || !strings.Contains(err.Error(), "resource monitor") {
		t.Fatalf("update error = %v, want the monitor refused", err)
	}
}

// TestCallMethod: a method call (InvokeRequest.Method) goes to the
// component provider's Call with the monitor's address and the operation,
// and returns the method's result; failures are an InvokeError.
func TestCallMethod(t *testing.T) {
	h, served := componentHarness(t)
	var got provider.CallRequest
	h.fake.CallF = func(_ context.Context, req provider.CallRequest) (provider.CallResponse, error) {
		got = req
		if req.Args["n"].Number() < 0 {
			return provider.CallResponse{Failures: []provider.CheckFailure{{Property: "n", Reason: "must not be negative"}}}, nil
		}
		return provider.CallResponse{Return: resource.Object{"twice": resource.NewNumber(2 * req.Args["n"].Number())}}, nil
	}
	var ret resource.Object
	var bad error
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		var err error
		ret, err = mon.Invoke(ctx, engine.InvokeRequest{Token: "pkg:index:Comp/double", Method: true,
			Args: resource.Object{"__self__": resource.NewString("ref"), "n": resource.NewNumber(21)}})
		_, bad = mon.Invoke(ctx, engine.InvokeRequest{Token: "pkg:index:Comp/double", Method: true,
			Args: resource.Object{"n": resource.NewNumber(-1)}})
		return err
	})
	h.mustUp(p)
	if ret["twice"].Number() != 42 {
		t.Errorf("the method returned %v, want twice: 42", ret)
	}
	if got.Token != "pkg:index:Comp/double" || got.Info.MonitorAddress == "" || got.Info.Stack == "" || *served != 1 {
		t.Errorf("Call got %+v (monitor served %d times), want the token, the monitor address and the stack", got, *served)
	}
	var ie *engine.InvokeError
	if !errors.As(bad, &ie) || !strings.Contains(bad.Error(), "n: must not be negative") {
		t.Errorf("a refused argument gave %v, want an InvokeError naming it", bad)
	}
}

// TestConstructedComponentRenamed: a remote component renamed with an
// alias given by parts (its old name) keeps its child, which inherits the
// alias: the provider is given the alias as the URN it names, registers
// the component under it, and nothing is replaced. Before, only aliases
// given as URNs reached the provider, and the component was created anew
// and the old one deleted.
func TestConstructedComponentRenamed(t *testing.T) {
	h := newHarness(t)
	var mon engine.Monitor
	h.opts = func(o *engine.Options) {
		o.ServeMonitor = func(m engine.Monitor) (string, func(), error) { mon = m; return "127.0.0.1:0", func() {}, nil }
	}
	var given [][]resource.URN
	h.fake.ConstructF = func(_ context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
		given = append(given, req.Options.Aliases)
		reg := engine.Registration{Type: req.Type, Name: req.Name, Parent: req.Parent, Inputs: resource.Object{}}
		for _, u := range req.Options.Aliases {
			reg.Aliases = append(reg.Aliases, engine.Alias{URN: u})
		}
		comp, err := registerNow(mon, reg)
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		_, err = registerNow(mon, engine.Registration{Type: "pkg:index:Thing", Name: "child", Custom: true,
			Parent: comp.URN, Inputs: resource.Object{"size": req.Inputs["size"]}, Provider: req.Options.Providers["pkg"]})
		return provider.ConstructResponse{URN: comp.URN}, err
	}
	comp := func(name string, aliases ...engine.Alias) prog {
		return prog{{name: name, typ: "pkg:index:Comp", inputs: map[string]any{"size": 1}, opt: func(r *engine.Registration) {
			r.Remote, r.Aliases = true, aliases
		}}}
	}
	h.mustUp(comp("c"))
	before := h.world.ids()
	h.mustUp(comp("d", engine.Alias{Name: "c"}))
	if len(given) != 2 || len(given[1]) != 1 || given[1][0] != "urn:pulumi:dev::proj::pkg:index:Comp::c" {
		t.Errorf("aliases given to Construct: %q, want the second the old URN", given)
	}
	diffStrings(t, "steps of the rename", nil, h.ops())
	diffStrings(t, "resources after the rename", []string{"child", "d"}, h.names())
	diffStrings(t, "world after the rename", before, h.world.ids())
	if got := h.get("child").URN; got != "urn:pulumi:dev::proj::pkg:index:Comp$pkg:index:Thing::child" {
		t.Errorf("child's URN = %s", got)
	}
}
