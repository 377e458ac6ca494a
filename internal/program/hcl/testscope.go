package hcl

import (
	"context"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// This file is what terraform test (internal/program/hcl/tftest) needs of
// a configuration: the root module's scope after a run, to evaluate a
// run block's assertions in, and where each checkable object's
// conditions are, to match expect_failures against the diagnostics.

// Scoped is an Evaluator that keeps the root module's values after each
// run: variables, locals, resources, data sources, module calls and
// outputs, as the engine left them (planned values, with unknowns, in a
// preview; applied values in an update).
type Scoped struct {
	ev *Evaluator

	mu   sync.Mutex
	last *run
}

var _ engine.Program = (*Scoped)(nil)

// Scoped returns the evaluator as a Scoped.
func (ev *Evaluator) Scoped() *Scoped { return &Scoped{ev: ev} }

// DryRun is the Scoped of the evaluator's DryRun, for a preview; its
// scope is its own.
func (s *Scoped) DryRun() engine.Program { return s.Planning() }

// Planning is DryRun with its type.
func (s *Scoped) Planning() *Scoped {
	return &Scoped{ev: s.ev.DryRun().(*Evaluator)}
}

// Run is Evaluator.Run, keeping the run's root module instance.
func (s *Scoped) Run(ctx context.Context, mon engine.Monitor) error {
	r := s.ev.newRun(ctx, mon)
	s.mu.Lock()
	s.last = r
	s.mu.Unlock()
	return r.all()
}

// Forget is Evaluator.Forget: removed blocks hold in a test run too.
func (s *Scoped) Forget(urn resource.URN) bool { return s.ev.Forget(urn) }

var _ engine.Forgetter = (*Scoped)(nil)

// Ran reports whether the program has run.
func (s *Scoped) Ran() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last != nil
}

// Context is the evaluation context of the root module after the last
// run, with output.NAME for its outputs and extra's variables added (a
// test file's run.NAME). It is nil before the program has run.
func (s *Scoped) Context(extra map[string]cty.Value) *hcl.EvalContext {
	s.mu.Lock()
	r := s.last
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	ctx := r.evalCtx(r.rootInst)
	ctx.Variables["output"] = cty.ObjectVal(s.Outputs())
	for k, v := range extra {
		ctx.Variables[k] = v
	}
	return ctx
}

// Outputs are the root module's output values after the last run, by
// name; an output that failed is missing.
func (s *Scoped) Outputs() map[string]cty.Value {
	s.mu.Lock()
	r := s.last
	s.mu.Unlock()
	out := map[string]cty.Value{}
	if r == nil {
		return out
	}
	for _, o := range r.c.root.outputs {
		if v, ok := r.rootInst.get("output." + o.name); ok {
			out[o.name] = v
		}
	}
	return out
}

// Values are the root module's values after the last run by address
// (var.x, local.x, TYPE.NAME, data.TYPE.NAME, module.x, output.x), for
// a verbose test report.
func (s *Scoped) Values() map[string]cty.Value {
	s.mu.Lock()
	r := s.last
	s.mu.Unlock()
	out := map[string]cty.Value{}
	if r == nil {
		return out
	}
	r.rootInst.mu.Lock()
	defer r.rootInst.mu.Unlock()
	for k, v := range r.rootInst.vals {
		out[k] = v
	}
	return out
}

// Variables are the names of the root module's input variables, sorted.
func (c *Config) Variables() []string {
	out := make([]string, 0, len(c.root.variables))
	for _, v := range c.root.variables {
		out = append(out, v.name)
	}
	sort.Strings(out)
	return out
}

// ConditionAt is where a condition expression starts, as a diagnostic
// about it names it.
type ConditionAt struct {
	File         string
	Line, Column int
}

// Checkable reports where the conditions of a checkable object of the
// root module are, by its address as expect_failures names it: var.NAME
// (its validations), output.NAME (its preconditions), TYPE.NAME or
// data.TYPE.NAME (its preconditions and postconditions), check.NAME (its
// assertions). ok is false when the root module has no such object.
func (c *Config) Checkable(addr string) (at []ConditionAt, ok bool) {
	m := c.root
	add := func(cs []*condition) {
		for _, cd := range cs {
			r := cd.cond.Range()
			at = append(at, ConditionAt{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column})
		}
	}
	for _, v := range m.variables {
		if "var."+v.name == addr {
			add(v.validations)
			return at, true
		}
	}
	for _, o := range m.outputs {
		if "output."+o.name == addr {
			add(o.preconditions)
			return at, true
		}
	}
	for _, ch := range m.checks {
		if "check."+ch.name == addr {
			add(ch.asserts)
			return at, true
		}
	}
	for _, rc := range m.resources {
		if rc.addr() == addr {
			add(rc.lc.preconditions)
			add(rc.lc.postconditions)
			return at, true
		}
	}
	return nil, false
}

// ValueOf is a cty value as a resource value, as the configuration's
// values are registered (a test file's mock and override values).
func ValueOf(v cty.Value) resource.Value { return fromCty(v) }
