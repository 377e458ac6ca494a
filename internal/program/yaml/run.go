package yaml

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// warn passes d to opts.Warn, if set.
func warn(opts program.Options, d program.Diagnostic) {
	if opts.Warn != nil {
		opts.Warn(d)
	}
}

// Evaluator runs a project with one stack's config. It is an
// engine.Program and may run any number of times.
type Evaluator struct {
	p      *Project
	config map[string]resource.Value
	opts   program.Options
	// maxPending bounds the registrations sent to the engine whose
	// callbacks have not come back (defaultMaxPending when 0).
	maxPending int
}

// defaultMaxPending is how many registrations the evaluator lets the
// engine hold at once. The engine runs at most its Parallel steps at a
// time (16 a core by default) and queues the rest, each queued
// registration holding its inputs; a program of 100,000 independent
// resources registered all at once kept about 0.4 KB a resource queued
// at the peak. A few thousand keep every worker busy.
const defaultMaxPending = 4096

var _ engine.Program = (*Evaluator)(nil)

// Program checks the stack's config (already decrypted) against the
// program's declarations and returns the program to run. Config keys are
// either the program's (KEY or PROJECT:KEY) or provider configuration
// (PKG:KEY). A missing required value or a value of the wrong type is an
// error; an undeclared key is a warning.
func (p *Project) Program(config map[string]resource.Value, opts program.Options) (*Evaluator, error) {
	resolved, ds := p.resolveConfig(config)
	for _, w := range ds.Warnings() {
		warn(opts, w)
	}
	if err := asError(ds.Errors()); err != nil {
		return nil, err
	}
	return &Evaluator{p: p, config: resolved, opts: opts}, nil
}

// Run checks the program against the provider schemas, then registers
// every resource as soon as what it references has resolved, and sets the
// stack outputs once they are all known. It returns when everything it
// registered has completed. A failed resource stops what depends on it,
// not what is independent of it.
func (ev *Evaluator) Run(ctx context.Context, mon engine.Monitor) error {
	r := &run{
		Evaluator: ev, ctx: ctx, mon: mon, fns: builtins(),
		state:   make([]nodeState, len(ev.p.nodes)),
		waiting: make([]int, len(ev.p.nodes)),
		wake:    make(chan struct{}, 1),
		pending: make(chan struct{}, cmp.Or(ev.maxPending, defaultMaxPending)),
	}
	if err := r.checkSchemas(); err != nil {
		return err
	}
	for i, n := range ev.p.nodes {
		if r.waiting[i] = len(n.deps); r.waiting[i] == 0 {
			r.queue = append(r.queue, r.starter(i))
		}
	}
	return r.loop()
}

// run is one execution of a program. Nodes start from the loop goroutine;
// engine callbacks and blocking evaluations settle them from others, and
// hand follow-up work back to the loop through the queue.
type run struct {
	*Evaluator
	ctx   context.Context
	mon   engine.Monitor
	fns   map[string]builtin
	state []nodeState // a node's entry is written once, when it settles
	// pending holds a token for each registration the engine has not
	// called back yet; register waits for room (see defaultMaxPending).
	// Callbacks never wait for it, so the engine always makes progress.
	pending chan struct{}

	mu      sync.Mutex
	waiting []int    // unsettled dependencies per node
	queue   []func() // work for the loop
	settled int
	errs    []nodeError
	wake    chan struct{}
}

// nodeState is what a settled node resolved to. A run holds one per
// node to its end, so it is kept small: a resource's registration is
// kept only if something may read it (see keepsRegistration).
type nodeState struct {
	failed bool
	value  resource.Value     // variable or output
	reg    *engine.Registered // resource, if kept
	inputs resource.Object    // component: what it was registered with (its outputs)
}

// registered returns the registration of the resource node st settled,
// as kept.
func (st *nodeState) registered() engine.Registered {
	if st.reg == nil {
		return engine.Registered{}
	}
	return *st.reg
}

// keepsRegistration reports whether a resource node's registration must
// be kept once it settles: only other nodes read it, through their
// dependencies, and providers and components are read otherwise too.
// Most resources of a large program have no dependents, and keeping
// each one's (180 bytes, with its URN and outputs) cost 18 MB at
// 100,000 resources.
func (r *run) keepsRegistration(n *node) bool {
	return len(n.dependents) > 0 || n.res.component || n.res.fromBlock || program.IsProviderType(n.res.token)
}

type nodeError struct {
	node int
	err  error
}

func (r *run) loop() error {
	for {
		tasks, finished := r.take()
		if finished {
			break
		}
		if len(tasks) == 0 {
			select {
			case <-r.wake:
			case <-r.ctx.Done():
				return errors.Join(r.result(), r.ctx.Err())
			}
			continue
		}
		for _, t := range tasks {
			t()
		}
	}
	r.setOutputs()
	return r.result()
}

func (r *run) take() ([]func(), bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.settled == len(r.p.nodes) {
		return nil, true
	}
	tasks := r.queue
	r.queue = nil
	return tasks, false
}

// enqueue hands work to the loop; it never blocks.
func (r *run) enqueue(t func()) {
	r.mu.Lock()
	r.queue = append(r.queue, t)
	r.mu.Unlock()
	r.signal()
}

func (r *run) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *run) starter(i int) func() { return func() { r.start(i) } }

// start evaluates a node whose dependencies have all settled. One that
// waits on a provider or the network runs on its own goroutine.
func (r *run) start(i int) {
	n := r.p.nodes[i]
	if r.ctx.Err() != nil || r.depFailed(n) {
		r.settle(i, nodeState{failed: true}, nil)
		return
	}
	if n.blocks {
		go r.evaluate(i)
		return
	}
	r.evaluate(i)
}

func (r *run) depFailed(n *node) bool {
	for _, j := range n.deps {
		if r.state[j].failed {
			return true
		}
	}
	return false
}

func (r *run) evaluate(i int) {
	n := r.p.nodes[i]
	if n.kind == nodeResource {
		r.register(i)
		return
	}
	v, err := r.eval(n.val)
	r.settle(i, nodeState{value: v, failed: err != nil}, err)
}

// settle records a node's result and queues the dependents it unblocks.
func (r *run) settle(i int, st nodeState, err error) {
	r.mu.Lock()
	r.state[i] = st
	if err != nil {
		r.errs = append(r.errs, nodeError{node: i, err: err})
	}
	r.settled++
	for _, d := range r.p.nodes[i].dependents {
		if r.waiting[d]--; r.waiting[d] == 0 {
			r.queue = append(r.queue, r.starter(d))
		}
	}
	r.mu.Unlock()
	r.signal()
}

// register evaluates a resource's registration and sends it to the
// engine; the engine's callback settles the node.
func (r *run) register(i int) {
	d := r.p.nodes[i].res
	reg, err := r.registration(i)
	if err != nil {
		r.settle(i, nodeState{failed: true}, err)
		return
	}
	// The callback keeps a component's inputs (its outputs) and nothing
	// else of reg: the engine holds the registration until its step runs.
	var componentInputs resource.Object
	if d.component {
		componentInputs = reg.Inputs
	}
	select {
	case r.pending <- struct{}{}:
	case <-r.ctx.Done():
		r.settle(i, nodeState{failed: true}, nil)
		return
	}
	r.mon.Register(reg, func(res engine.Registered, err error) {
		<-r.pending
		if err != nil {
			r.settle(i, nodeState{failed: true}, r.resourceError(d, "Resource failed", fmt.Sprintf("The %s %q failed: %s.", d.token, d.name, err), err))
			return
		}
		var st nodeState
		if r.keepsRegistration(r.p.nodes[i]) {
			st.reg = &res
		}
		if d.component {
			st.inputs = componentInputs
			r.enqueue(func() { r.finishComponent(i, st) })
			return
		}
		r.settle(i, st, nil)
	})
}

// finishComponent records a component's outputs: its properties.
func (r *run) finishComponent(i int, st nodeState) {
	d := r.p.nodes[i].res
	if err := r.mon.RegisterOutputs(st.registered().URN, st.inputs); err != nil {
		r.settle(i, nodeState{failed: true}, r.resourceError(d, "Component failed", fmt.Sprintf("Recording the outputs of component %q failed: %s.", d.name, err), err))
		return
	}
	r.settle(i, st, nil)
}

func (r *run) resourceError(d *resourceDecl, summary, detail string, err error) error {
	return &ResourceError{Err: err, Diagnostic: program.Diagnostic{Summary: summary, Detail: detail,
		File: r.p.file, Line: d.at.Line, Column: d.at.Column, Path: d.where}}
}

// setOutputs sets the stack outputs. An output that could not be
// evaluated (a resource it depends on failed) is set to unknown, which the
// engine takes to mean "keep the recorded value": the outputs that depend
// only on resources that succeeded are saved even when others failed.
func (r *run) setOutputs() {
	if r.p.importOnly {
		return
	}
	out := resource.Object{}
	for k, i := range r.p.outputNodes {
		v := r.state[i].value
		if r.state[i].failed {
			v = resource.Unknown()
		}
		out[r.p.outputs[k].name] = v
	}
	r.mon.SetStackOutputs(out)
}

// result joins the errors in program order.
func (r *run) result() error {
	r.mu.Lock()
	errs := append([]nodeError(nil), r.errs...)
	r.mu.Unlock()
	sort.SliceStable(errs, func(a, b int) bool { return errs[a].node < errs[b].node })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e.err
	}
	return errors.Join(out...)
}
