package plinth_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// harness drives the built-in provider through the generic SDK interface
// the way the engine drives a provider: Check before Create, Check and Diff
// before Update or replacement, Read for refresh.
type harness struct {
	t   *testing.T
	p   provider.Provider
	ctx context.Context
}

// res is a resource as the engine records it.
type res struct {
	urn     resource.URN
	id      string
	inputs  resource.Object
	outputs resource.Object
}

var valueCmp = cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })

// newHarness configures a fresh built-in provider with root as its root
// ("" leaves it unset).
func newHarness(t *testing.T, root string) *harness {
	t.Helper()
	h := &harness{t: t, p: plinth.New(), ctx: context.Background()}
	cfg := resource.Object{}
	if root != "" {
		cfg["root"] = resource.NewString(root)
	}
	checked, err := h.p.CheckConfig(h.ctx, provider.CheckRequest{News: cfg})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, checked.Failures)
	}
	if _, err := h.p.Configure(h.ctx, provider.ConfigureRequest{Inputs: checked.Inputs}); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return h
}

func urnOf(typ, name string) resource.URN { return resource.NewURN("dev", "test", "", typ, name) }

// check runs Check and fails the test on failures.
func (h *harness) check(urn resource.URN, olds, news resource.Object) resource.Object {
	h.t.Helper()
	resp, err := h.p.Check(h.ctx, provider.CheckRequest{URN: urn, Olds: olds, News: news})
	if err != nil || len(resp.Failures) > 0 {
		h.t.Fatalf("Check %s: %v %v", urn.Name(), err, resp.Failures)
	}
	return resp.Inputs
}

// failures runs Check and returns its failures.
func (h *harness) failures(typ string, news map[string]any) []provider.CheckFailure {
	h.t.Helper()
	resp, err := h.p.Check(h.ctx, provider.CheckRequest{URN: urnOf(typ, "f"), News: resource.ObjectFromGo(news)})
	if err != nil {
		h.t.Fatalf("Check: %v", err)
	}
	return resp.Failures
}

// create checks and creates a resource.
func (h *harness) create(typ, name string, news map[string]any) *res {
	h.t.Helper()
	r, err := h.tryCreate(typ, name, resource.ObjectFromGo(news))
	if err != nil {
		h.t.Fatalf("Create %s: %v", name, err)
	}
	return r
}

func (h *harness) tryCreate(typ, name string, news resource.Object) (*res, error) {
	urn := urnOf(typ, name)
	inputs := h.check(urn, nil, news)
	resp, err := h.p.Create(h.ctx, provider.CreateRequest{URN: urn, Inputs: inputs})
	if err != nil {
		return nil, err
	}
	return &res{urn: urn, id: resp.ID, inputs: inputs, outputs: resp.Outputs}, nil
}

// preview checks and previews the creation of a resource.
func (h *harness) preview(typ string, news resource.Object) resource.Object {
	h.t.Helper()
	urn := urnOf(typ, "p")
	resp, err := h.p.Create(h.ctx, provider.CreateRequest{URN: urn, Inputs: h.check(urn, nil, news), Preview: true})
	if err != nil || resp.ID != "" {
		h.t.Fatalf("preview Create: %q %v", resp.ID, err)
	}
	return resp.Outputs
}

// diff checks news against r and diffs.
func (h *harness) diff(r *res, news map[string]any) (resource.Object, provider.DiffResponse) {
	h.t.Helper()
	inputs := h.check(r.urn, r.inputs, resource.ObjectFromGo(news))
	resp, err := h.p.Diff(h.ctx, provider.DiffRequest{URN: r.urn, ID: r.id, OldInputs: r.inputs, OldOutputs: r.outputs, News: inputs})
	if err != nil {
		h.t.Fatalf("Diff %s: %v", r.urn.Name(), err)
	}
	return inputs, resp
}

// up brings r to news as the engine would: nothing, an update, or a
// replacement (create before delete unless the diff says otherwise). It
// returns the resulting resource and the diff.
func (h *harness) up(r *res, news map[string]any) (*res, provider.DiffResponse) {
	h.t.Helper()
	inputs, d := h.diff(r, news)
	switch {
	case d.Changes == provider.DiffNone:
		return r, d
	case !d.Replaces():
		resp, err := h.p.Update(h.ctx, provider.UpdateRequest{URN: r.urn, ID: r.id, OldInputs: r.inputs, OldOutputs: r.outputs, News: inputs})
		if err != nil {
			h.t.Fatalf("Update %s: %v", r.urn.Name(), err)
		}
		return &res{urn: r.urn, id: r.id, inputs: inputs, outputs: resp.Outputs}, d
	}
	if d.DeleteBeforeReplace {
		h.delete(r)
	}
	fresh := h.check(r.urn, nil, resource.ObjectFromGo(news))
	resp, err := h.p.Create(h.ctx, provider.CreateRequest{URN: r.urn, Inputs: fresh})
	if err != nil {
		h.t.Fatalf("replacement Create %s: %v", r.urn.Name(), err)
	}
	if !d.DeleteBeforeReplace {
		h.delete(r)
	}
	return &res{urn: r.urn, id: resp.ID, inputs: fresh, outputs: resp.Outputs}, d
}

// refresh reads r; nil means it is gone.
func (h *harness) refresh(r *res) *res {
	h.t.Helper()
	resp, err := h.p.Read(h.ctx, provider.ReadRequest{URN: r.urn, ID: r.id, Inputs: r.inputs, State: r.outputs})
	if err != nil {
		h.t.Fatalf("Read %s: %v", r.urn.Name(), err)
	}
	if resp.ID == "" {
		return nil
	}
	return &res{urn: r.urn, id: resp.ID, inputs: resp.Inputs, outputs: resp.Outputs}
}

func (h *harness) delete(r *res) {
	h.t.Helper()
	if err := h.tryDelete(r); err != nil {
		h.t.Fatalf("Delete %s: %v", r.urn.Name(), err)
	}
}

func (h *harness) tryDelete(r *res) error {
	_, err := h.p.Delete(h.ctx, provider.DeleteRequest{URN: r.urn, ID: r.id, Inputs: r.inputs, Outputs: r.outputs})
	return err
}

func (h *harness) invoke(token string, args map[string]any) provider.InvokeResponse {
	h.t.Helper()
	resp, err := h.p.Invoke(h.ctx, provider.InvokeRequest{Token: token, Args: resource.ObjectFromGo(args)})
	if err != nil {
		h.t.Fatalf("Invoke %s: %v", token, err)
	}
	return resp
}
