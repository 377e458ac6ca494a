package engine_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// world is what a fake provider has made: the ledger the state is checked
// against.
type world struct {
	mu     sync.Mutex
	next   int
	things map[string]resource.Object // by ID
	log    []string                   // "create a", "delete a", ...
}

func newWorld() *world { return &world{things: map[string]resource.Object{}} }

func (w *world) create(urn resource.URN, inputs resource.Object) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.next++
	id := fmt.Sprintf("%s-%d", urn.Name(), w.next)
	w.things[id] = inputs
	w.log = append(w.log, "create "+urn.Name())
	return id
}

func (w *world) update(urn resource.URN, id string, inputs resource.Object) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.things[id] = inputs
	w.log = append(w.log, "update "+urn.Name())
}

func (w *world) remove(urn resource.URN, id string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.things[id]; !ok {
		return fmt.Errorf("no such thing %s", id)
	}
	delete(w.things, id)
	w.log = append(w.log, "delete "+urn.Name())
	return nil
}

func (w *world) ids() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var ids []string
	for id := range w.things {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (w *world) history() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.log...)
}

// fakeFor returns a provider that keeps w: it creates, updates and deletes
// things there, outputs its inputs plus "out", and leaves Diff to the
// engine.
func fakeFor(w *world) *provider.Fake {
	return &provider.Fake{
		CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
			outs := req.Inputs.Copy()
			if req.Preview {
				outs["out"] = resource.Unknown()
				return provider.CreateResponse{Outputs: outs}, nil
			}
			id := w.create(req.URN, req.Inputs)
			outs["out"] = resource.NewString("out-" + id)
			return provider.CreateResponse{ID: id, Outputs: outs}, nil
		},
		UpdateF: func(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
			outs := req.News.Copy()
			outs["out"] = req.OldOutputs["out"]
			if !req.Preview {
				w.update(req.URN, req.ID, req.News)
			}
			return provider.UpdateResponse{Outputs: outs}, nil
		},
		DeleteF: func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
			return provider.DeleteResponse{}, w.remove(req.URN, req.ID)
		},
		ReadF: func(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
			w.mu.Lock()
			defer w.mu.Unlock()
			ins, ok := w.things[req.ID]
			if !ok {
				return provider.ReadResponse{}, nil
			}
			outs := ins.Copy()
			outs["out"] = resource.NewString("out-" + req.ID)
			return provider.ReadResponse{ID: req.ID, Inputs: ins, Outputs: outs}, nil
		},
	}
}

// source hands out one fake per package and counts instances.
type source struct {
	mu        sync.Mutex
	fakes     map[string]*provider.Fake
	instances map[string]int
}

func (s *source) NewProvider(_ context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.fakes[req.Package]
	if !ok {
		return nil, fmt.Errorf("no provider for package %q", req.Package)
	}
	s.instances[req.Package]++
	return f, nil
}

// harness drives the engine over a sequence of operations on one stack,
// checking state integrity after every journal write.
type harness struct {
	t      *testing.T
	world  *world
	fake   *provider.Fake
	src    *source
	snap   *state.Snapshot
	mu     sync.Mutex
	events []engine.Event
	opts   func(*engine.Options)
}

func newHarness(t *testing.T) *harness {
	w := newWorld()
	f := fakeFor(w)
	h := &harness{t: t, world: w, fake: f, snap: &state.Snapshot{}}
	h.src = &source{fakes: map[string]*provider.Fake{"pkg": f}, instances: map[string]int{}}
	return h
}

func (h *harness) options(j engine.Journal) engine.Options {
	o := engine.Options{
		Stack: "dev", Project: "proj", Providers: h.src, Journal: j,
		Events: func(e engine.Event) { h.mu.Lock(); h.events = append(h.events, e); h.mu.Unlock() },
	}
	if h.opts != nil {
		h.opts(&o)
	}
	return o
}

// run runs one operation with a verifying journal and keeps the state it
// leaves.
func (h *harness) run(op func(ctx context.Context, base *state.Snapshot, opts engine.Options) (*engine.Result, error)) (*engine.Result, error) {
	h.t.Helper()
	h.mu.Lock()
	h.events = nil
	h.mu.Unlock()
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(h.t))
	res, err := op(context.Background(), h.snap, h.options(j))
	h.snap = j.Snapshot()
	if verr := h.snap.Verify(); verr != nil {
		h.t.Fatalf("state after the operation fails verification: %v", verr)
	}
	return res, err
}

func (h *harness) up(p engine.Program) (*engine.Result, error) {
	h.t.Helper()
	return h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Update(ctx, p, base, o)
	})
}

func (h *harness) mustUp(p engine.Program) *engine.Result {
	h.t.Helper()
	res, err := h.up(p)
	if err != nil {
		h.t.Fatalf("update: %v", err)
	}
	return res
}

func (h *harness) preview(p engine.Program) (*engine.Result, error) {
	h.t.Helper()
	return h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Preview(ctx, p, base, o)
	})
}

// ops returns "op name" for each finished step event, sorted.
func (h *harness) ops() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Kind == engine.EventStepDone && e.Op != engine.OpSame && !state.IsProviderType(e.Type) {
			out = append(out, string(e.Op)+" "+e.URN.Name())
		}
	}
	sort.Strings(out)
	return out
}

// names lists the live resources in state (custom and component, not
// providers) as "name=id".
func (h *harness) names() []string {
	var out []string
	for _, r := range h.snap.Resources {
		if !state.IsProviderType(r.Type) {
			s := r.URN.Name()
			if r.Delete {
				s += "(delete)"
			}
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// urns lists the URNs of the live resources in state (custom and
// component, not providers), sorted.
func (h *harness) urns() []string {
	var out []string
	for _, r := range h.snap.Resources {
		if !state.IsProviderType(r.Type) && !r.Delete {
			out = append(out, string(r.URN))
		}
	}
	sort.Strings(out)
	return out
}

func (h *harness) get(name string) *state.Resource {
	for _, r := range h.snap.Resources {
		if r.URN.Name() == name && !r.Delete && !state.IsProviderType(r.Type) {
			return r
		}
	}
	return nil
}

// spec declares one resource of a test program.
type spec struct {
	name   string
	typ    string // default "pkg:index:Thing"
	inputs map[string]any
	deps   []string // names this one depends on (and waits for)
	// from copies a dependency's output into an input: input -> "dep.output".
	from      map[string]string
	component bool
	parent    string
	provider  string // name of a provider resource in the program
	opt       func(*engine.Registration)
}

// prog is a test program: each resource registers once the resources it
// depends on are done, with their outputs available.
type prog []spec

func (p prog) Run(ctx context.Context, mon engine.Monitor) error {
	results := make(map[string]chan engine.Registered, len(p))
	for _, s := range p {
		results[s.name] = make(chan engine.Registered, 1)
	}
	errs := make(chan error, len(p))
	for _, s := range p {
		go func() { errs <- p.register(ctx, mon, s, results) }()
	}
	var first error
	for range p {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (p prog) register(ctx context.Context, mon engine.Monitor, s spec, results map[string]chan engine.Registered) error {
	deps := map[string]engine.Registered{}
	waitFor := append(append([]string(nil), s.deps...), s.parent, s.provider)
	for _, name := range waitFor {
		if name == "" {
			continue
		}
		r, ok := <-results[name]
		if !ok {
			close(results[s.name])
			return nil // a dependency failed; so does this, quietly
		}
		results[name] <- r
		deps[name] = r
	}
	reg := s.registration(mon, deps)
	res, err := engine.RegisterAndWait(ctx, mon, reg)
	if err != nil {
		close(results[s.name])
		return err
	}
	results[s.name] <- res
	return nil
}

func (s spec) registration(mon engine.Monitor, deps map[string]engine.Registered) engine.Registration {
	typ := s.typ
	if typ == "" {
		typ = "pkg:index:Thing"
	}
	inputs := resource.ObjectFromGo(s.inputs)
	if inputs == nil {
		inputs = resource.Object{}
	}
	reg := engine.Registration{Type: typ, Name: s.name, Custom: !s.component, Inputs: inputs}
	for _, d := range s.deps {
		reg.Dependencies = append(reg.Dependencies, deps[d].URN)
	}
	for in, src := range s.from {
		var dep, out string
		fmt.Sscanf(src, "%s", &dep)
		for i := range src {
			if src[i] == '.' {
				dep, out = src[:i], src[i+1:]
				break
			}
		}
		v, ok := deps[dep].Outputs[out]
		if !ok {
			v = resource.Unknown()
		}
		inputs[in] = v
	}
	if s.parent != "" {
		reg.Parent = deps[s.parent].URN
	}
	if s.provider != "" {
		reg.Provider = deps[s.provider].ProviderRef
	}
	if s.opt != nil {
		s.opt(&reg)
	}
	return reg
}

func diffStrings(t *testing.T, what string, want, got []string) {
	t.Helper()
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("%s:\n want %q\n  got %q", what, want, got)
	}
}

func newFailingJournal(base *state.Snapshot, err error) *state.MemoryJournal {
	return state.NewMemoryJournal(base, state.FailRecord(func(e *state.Entry) error {
		if e.Kind == state.Begin {
			return err
		}
		return nil
	}))
}
