package hcl

import (
	"time"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Evaluator runs a configuration with its input variables. It is an
// engine.Program and may run any number of times.
type Evaluator struct {
	c      *Config
	inputs map[string]cty.Value // root variables given a value
	opts   program.Options
	// planning is set in the evaluator DryRun returns, for a preview:
	// uuid(), timestamp() and bcrypt() are then unknown, as in a
	// terraform plan.
	planning bool
	// planned are the output values (root and module outputs, by
	// address: output.x, module.a["k"].output.x) a preview of this
	// evaluator found wholly known, shared with its DryRun. An update
	// keeps them rather than evaluate the outputs again, as terraform's
	// apply keeps an output's planned value when the plan knew it
	// whole: a module's var.in != {...} known true in the plan because
	// var.in was an unknown string stays true once var.in is the
	// default object. Nil where nothing is shared.
	planned *sync.Map
	// overrides are plinth test's overridden data sources and module
	// calls (WithOverrides).
	overrides Overrides
}

var _ engine.Program = (*Evaluator)(nil)

// DryRun returns the program to run for a preview (a terraform plan):
// the same configuration and inputs, with the functions whose result
// differs from call to call (uuid, timestamp, bcrypt) unknown until
// apply, as terraform has them. The CLI asks for it by this method.
func (ev *Evaluator) DryRun() engine.Program {
	c := *ev
	c.planning = true
	return &c
}

// run is one execution.
type run struct {
	*Evaluator
	ctx   context.Context
	mon   engine.Monitor
	funcs map[string]function.Function
	st    []*nodeState

	mu        sync.Mutex
	instances map[*Module][]*modInst
	errs      []program.Diagnostic
	rootInst  *modInst
	// outcomes are what the engine did to each managed instance, by
	// address, for replace_triggered_by.
	outcomes map[string]engine.Registered
	// argSchemas are the schemas of the resources' and data sources'
	// arguments, from their providers, for checkValues; written before
	// anything is evaluated.
	argSchemas map[*resourceConfig]map[string]schema.Property
	// resultSchemas are the schemas of the resources' and data sources'
	// attributes: which are sensitive (resultMarks), and the computed ones
	// a deferred read shows as known after apply.
	resultSchemas map[*resourceConfig]map[string]schema.Property
	// failedChecks are the check blocks, by checkKey, whose scoped data
	// sources failed to read: their assertions are not evaluated.
	failedChecks map[string]bool
	// overridden are the instance keys of each overridden module call
	// (Overrides.Modules), by its address in its parent's instance.
	overridden map[string][]instanceKey
}

// nodeState is a node's result, written before its done channel closes.
type nodeState struct {
	done    chan struct{}
	failed  bool
	urns    []resource.URN // a resource's instances
	pending bool           // a resource instance is yet to be created or replaced
	absent  bool           // an instance is outside a targeted run and does not exist
}

// modInst is one instance of a module, with the values evaluated in it.
type modInst struct {
	mod       *Module
	prefix    string // its address prefix: "" or module.a["k"].
	parent    *modInst
	call      *moduleCall
	key, each cty.Value // count.index or each.key, each.value; NilVal when neither
	providers map[string]string

	mu   sync.Mutex
	vals map[string]cty.Value // by address in the module: var.x, local.x, t.n, data.t.n, module.x, output.x
}

func (i *modInst) set(addr string, v cty.Value) {
	i.mu.Lock()
	i.vals[addr] = v
	i.mu.Unlock()
}

func (i *modInst) get(addr string) (cty.Value, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	v, ok := i.vals[addr]
	return v, ok
}

// Run registers every resource once what it refers to is known, sets
// the root module's outputs as the stack outputs, and returns the errors
// found, as diagnostics.
func (ev *Evaluator) Run(ctx context.Context, mon engine.Monitor) error {
	return ev.newRun(ctx, mon).all()
}

// newRun is one run of the configuration, its root module instance made.
func (ev *Evaluator) newRun(ctx context.Context, mon engine.Monitor) *run {
	r := &run{Evaluator: ev, ctx: ctx, mon: mon, funcs: functions(ev.c.dir, time.Now(), ev.planning), instances: map[*Module][]*modInst{},
		failedChecks: map[string]bool{}, overridden: map[string][]instanceKey{}}
	r.rootInst = &modInst{mod: ev.c.root, providers: map[string]string{}, vals: map[string]cty.Value{}}
	r.instances[ev.c.root] = []*modInst{r.rootInst}
	return r
}

// all runs every node of the configuration, each once what it refers to
// is known, then sets the outputs; it returns the errors found.
func (r *run) all() error {
	if !r.schemaCheck() {
		return r.result()
	}
	nodes := r.c.graph.nodes
	r.st = make([]*nodeState, len(nodes))
	for i := range nodes {
		r.st[i] = &nodeState{done: make(chan struct{})}
	}
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.runNode(n)
		}()
	}
	wg.Wait()
	r.generateConfig()
	r.setOutputs()
	return r.result()
}

// runNode waits for a node's dependencies, then evaluates it in every
// instance of its module.
func (r *run) runNode(n *node) {
	st := r.st[n.idx]
	defer close(st.done)
	for d := range n.deps {
		select {
		case <-r.st[d.idx].done:
		case <-r.ctx.Done():
			st.failed = true
			return
		}
		if r.st[d.idx].failed {
			st.failed = true
		}
	}
	if st.failed || r.ctx.Err() != nil {
		st.failed = true
		return
	}
	if !r.evaluate(n) {
		st.failed = true
	}
}

// evaluate runs a node; it reports whether it succeeded.
func (r *run) evaluate(n *node) bool {
	switch n.kind {
	case kindResource:
		return r.resource(n)
	case kindCall:
		return r.expandCall(n)
	case kindProvider:
		return r.providerNode(n)
	}
	ok := true
	for _, inst := range r.instancesOf(n.mod) {
		switch n.kind {
		case kindVariable:
			ok = r.variable(n, inst) && ok
		case kindLocal:
			ok = r.local(n, inst) && ok
		case kindModule:
			r.moduleValue(n, inst)
		case kindOutput:
			ok = r.output(n, inst) && ok
		case kindCheck:
			r.check(n, inst)
		}
	}
	return ok
}

func (r *run) instancesOf(m *Module) []*modInst {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.instances[m]
}

// report records diagnostics: errors fail the run, warnings go to the
// options' Warn. It reports whether there were no errors.
func (r *run) report(ds hcl.Diagnostics) bool {
	for _, d := range ds {
		pd := r.c.src.diagnostic(d)
		if d.Severity == hcl.DiagWarning {
			if r.opts.Warn != nil {
				r.opts.Warn(pd)
			}
			continue
		}
		r.mu.Lock()
		r.errs = append(r.errs, pd)
		r.mu.Unlock()
	}
	return !ds.HasErrors()
}

// result is every error, in file order.
func (r *run) result() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) == 0 {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		return nil
	}
	ds := append(program.Diagnostics(nil), r.errs...)
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		return ds[i].Line < ds[j].Line
	})
	return errors.Join(ds, r.ctx.Err())
}

// evalCtx is the evaluation context of a module instance: every value
// evaluated in it so far, path, terraform and the functions.
func (r *run) evalCtx(inst *modInst) *hcl.EvalContext {
	groups := map[string]map[string]map[string]cty.Value{"data": {}, "ephemeral": {}}
	top := map[string]map[string]cty.Value{"var": {}, "local": {}, "module": {}}
	inst.mu.Lock()
	for addr, v := range inst.vals {
		parts := strings.SplitN(addr, ".", 3)
		if g, ok := groups[parts[0]]; ok {
			if g[parts[1]] == nil {
				g[parts[1]] = map[string]cty.Value{}
			}
			g[parts[1]][parts[2]] = v
			continue
		}
		if parts[0] == "output" {
			continue
		}
		if top[parts[0]] == nil {
			top[parts[0]] = map[string]cty.Value{}
		}
		top[parts[0]][parts[1]] = v
	}
	inst.mu.Unlock()
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: r.withProviderFuncs(inst, r.funcs)}
	for k, m := range top {
		ctx.Variables[k] = cty.ObjectVal(m)
	}
	for k, g := range groups {
		obj := map[string]cty.Value{}
		for typ, m := range g {
			obj[typ] = cty.ObjectVal(m)
		}
		ctx.Variables[k] = cty.ObjectVal(obj)
	}
	ctx.Variables["path"] = cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(r.relPath(inst.mod.dir)), "root": cty.StringVal("."), "cwd": cty.StringVal(r.c.dir)})
	ctx.Variables["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(r.workspace())})
	return ctx
}

// relPath is a module directory relative to the root, as path.module is.
func (r *run) relPath(dir string) string {
	if dir == r.c.dir {
		return "."
	}
	if rel, ok := strings.CutPrefix(dir, r.c.dir+string(os.PathSeparator)); ok {
		return rel
	}
	return dir
}

func (r *run) workspace() string {
	if r.opts.Stack != "" {
		return r.opts.Stack
	}
	return "default"
}

// withInstance adds count or each to a context.
func withInstance(ctx *hcl.EvalContext, key, each cty.Value) *hcl.EvalContext {
	if key == cty.NilVal {
		return ctx
	}
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{}
	if each == cty.NilVal {
		child.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": key})
	} else {
		child.Variables["each"] = cty.ObjectVal(map[string]cty.Value{"key": key, "value": each})
	}
	return child
}

// instanceKey is one instance of a counted or for_each object.
type instanceKey struct {
	key, each cty.Value // NilVal for a single instance
}

// suffix is the key as an address shows it: [0] or ["a"].
func (k instanceKey) suffix() string {
	switch {
	case k.key == cty.NilVal:
		return ""
	case k.key.Type() == cty.Number:
		return "[" + numberKey(k.key) + "]"
	}
	return "[" + strconv.Quote(k.key.AsString()) + "]"
}

// numberKey writes a number key's digits: a count index through strconv,
// anything else (not a whole number that fits an int64) through math/big,
// whose decimal expansion costs a hundred times more and is the same for
// an int64 (every instance of a count pays it, more than once).
func numberKey(v cty.Value) string {
	bf := v.AsBigFloat()
	if i, acc := bf.Int64(); acc == big.Exact && (i != 0 || !bf.Signbit()) {
		return strconv.FormatInt(i, 10)
	}
	return bf.Text('f', -1)
}

// expand evaluates count or for_each into the instance keys, in order.
// It refuses values unknown during the plan, as terraform does.
func (r *run) expand(ctx *hcl.EvalContext, count, forEach hcl.Expression, what string) ([]instanceKey, bool) {
	switch {
	case count != nil:
		return r.expandCount(ctx, count, what)
	case forEach != nil:
		return r.expandForEach(ctx, forEach, what)
	}
	return []instanceKey{{key: cty.NilVal}}, true
}

func (r *run) expandCount(ctx *hcl.EvalContext, e hcl.Expression, what string) ([]instanceKey, bool) {
	v, ds := e.Value(ctx)
	if !r.report(ds) {
		return nil, false
	}
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid count argument",
			"The \"count\" value depends on resource attributes that cannot be determined until apply, so plinth cannot predict how many instances will be created. To work around this, use --target to first apply only the resources that the count depends on.")})
	}
	n, err := countValue(v)
	if err != "" {
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid count argument", "The given \"count\" argument value is unsuitable: %s.", err)})
	}
	keys := make([]instanceKey, n)
	for i := range keys {
		keys[i] = instanceKey{key: cty.NumberIntVal(int64(i))}
	}
	return keys, true
}

func countValue(v cty.Value) (int, string) {
	if v.IsNull() {
		return 0, "count must not be null"
	}
	if v.Type() == cty.String {
		if n, err := strconv.Atoi(v.AsString()); err == nil {
			v = cty.NumberIntVal(int64(n))
		}
	}
	if v.Type() != cty.Number {
		return 0, "a number is required"
	}
	f := v.AsBigFloat()
	if !f.IsInt() {
		return 0, "count must be a whole number"
	}
	n, _ := f.Int64()
	if n < 0 {
		return 0, "must be greater than or equal to zero"
	}
	return int(n), ""
}

func (r *run) expandForEach(ctx *hcl.EvalContext, e hcl.Expression, what string) ([]instanceKey, bool) {
	v, ds := e.Value(ctx)
	if !r.report(ds) {
		return nil, false
	}
	if v.HasMark(sensitive) {
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid for_each argument",
			"Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")})
	}
	// The marks of the elements stay in each.value: a map whose values
	// hold a sensitive attribute gives each instance that attribute
	// sensitive, as in terraform. The keys carry none (a set's marks are
	// the set's own, refused above).
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case v.IsNull():
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid for_each argument", "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.")})
	case !v.IsKnown() || (ty.IsSetType() && !v.IsWhollyKnown()):
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid for_each argument",
			"The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so plinth cannot determine the full set of keys that will identify the instances of this %s.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\nAlternatively, you could use --target to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.", what)})
	case ty.IsSetType() && ty.ElementType() == cty.String, ty.IsMapType(), ty.IsObjectType():
	case ty.IsSetType():
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid for_each set argument",
			"The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type %s.", ty.ElementType().FriendlyName())})
	default:
		return nil, r.report(hcl.Diagnostics{errorAt(e.Range(), "Invalid for_each argument",
			"The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type %s. Convert a list with toset().", ty.FriendlyName())})
	}
	var keys []instanceKey
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if ty.IsSetType() {
			e, _ = e.UnmarkDeep()
			keys = append(keys, instanceKey{key: e, each: e})
			continue
		}
		k, _ = k.Unmark()
		keys = append(keys, instanceKey{key: k, each: e})
	}
	return keys, true
}

// collect assembles the value of a counted or for_each object from its
// instances' values.
//
// An instance whose value is cty.NilVal does not exist (outside a
// targeted run, never created): it is left out, as terraform leaves it
// out of the run, so that aws_x.y[*].id lists the instances there are; a
// resource without count or for_each is then unknown.
func collect(keys []instanceKey, vals []cty.Value, counted, forEach bool) cty.Value {
	switch {
	case counted:
		var there []cty.Value
		for _, v := range vals {
			if v != cty.NilVal {
				there = append(there, v)
			}
		}
		if len(there) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(there)
	case forEach:
		m := make(map[string]cty.Value, len(vals))
		for i, k := range keys {
			if vals[i] != cty.NilVal {
				m[k.key.AsString()] = vals[i]
			}
		}
		return cty.ObjectVal(m)
	}
	if len(vals) == 0 {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if vals[0] == cty.NilVal {
		return cty.DynamicVal
	}
	return vals[0]
}

// message evaluates a condition's error message (see ErrorMessage).
func (r *run) message(ctx *hcl.EvalContext, c *condition) (string, hcl.Diagnostics) {
	v, ds := c.message.Value(ctx)
	return ErrorMessage(v, ds, c.message.Range())
}

// ErrorMessage is the text of a condition's error message, given the
// value and diagnostics of its evaluation and its range. A message built
// from a sensitive or ephemeral value is never shown: a warning at the
// message says so, which the caller reports whether the condition holds
// or not, as terraform warns, and the text in its place points to that
// warning. tftest uses it for assert blocks.
func ErrorMessage(v cty.Value, ds hcl.Diagnostics, rng hcl.Range) (string, hcl.Diagnostics) {
	if ds.HasErrors() {
		return "(the error message could not be evaluated)", nil
	}
	for _, h := range hiddenMessageMarks {
		if hasMark(v, h.mark) {
			return hiddenMessage, hcl.Diagnostics{warningAt(rng, "Error message refers to "+h.what+" values",
				"The error message of this condition refers to %s values, so plinth does not show it. %s", h.what, h.fix)}
		}
	}
	if !v.IsKnown() {
		return unknownMessage, nil
	}
	if v.IsNull() || v.Type() != cty.String {
		return "(the error message could not be evaluated)", nil
	}
	return v.AsString(), nil
}

// unknownMessage stands for an error message not known until apply;
// conditionsAt reports a failed condition with one as an invalid message.
const unknownMessage = "(the error message refers to values known only after apply, so it cannot be shown)"

// hiddenMessage stands for a condition's error message that is not shown.
const hiddenMessage = "This condition failed; its error message is not shown (see the warning about it)."

// hiddenMessageMarks are the marks that keep an error message from being
// shown, with what to do about each.
var hiddenMessageMarks = []struct {
	mark funcs.Mark
	what string
	fix  string
}{
	{sensitive, "sensitive", "Remove the references to sensitive values, or wrap a reference that reveals nothing secret in nonsensitive()."},
	{ephemeralMark, "ephemeral", "Remove the references to ephemeral values, or wrap them in ephemeralasnull()."},
}

// hasMark reports whether any part of v carries mark.
func hasMark(v cty.Value, mark funcs.Mark) bool {
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if _, ok := pm.Marks[mark]; ok {
			return true
		}
	}
	return false
}

// customConditions checks preconditions or postconditions as errors, as
// conditions does, except in a run that configures the
// providers for a destroy, which checks none of them: terraform's
// destroy does not, so a configuration whose conditions no longer hold
// can still be destroyed.
func (r *run) customConditions(ctx *hcl.EvalContext, cs []*condition, summary string) bool {
	if r.opts.Destroy {
		return true
	}
	return r.conditions(ctx, cs, summary, hcl.DiagError)
}

// conditions evaluates conditions; a false one is an error (or a warning)
// with its message. Unknown conditions are left for later.
func (r *run) conditions(ctx *hcl.EvalContext, cs []*condition, summary string, sev hcl.DiagnosticSeverity) bool {
	return r.conditionsAt(ctx, cs, summary, sev, nil)
}

// conditionsAt checks conditions as conditions does; place, if not nil,
// moves a failed condition's diagnostic elsewhere (a module variable's
// to the module call's argument). A failed condition's diagnostic lists
// the values its condition refers to.
func (r *run) conditionsAt(ctx *hcl.EvalContext, cs []*condition, summary string, sev hcl.DiagnosticSeverity, place func(*condition, *hcl.Diagnostic)) bool {
	ok := true
	for _, c := range cs {
		v, ds := c.cond.Value(ctx)
		if !r.report(ds) {
			ok = false
			continue
		}
		v, _ = v.UnmarkDeep()
		if !v.IsKnown() {
			continue
		}
		// A condition converts to bool as terraform converts it: the
		// strings "true" and "false" (an untyped variable's -var) hold.
		v, err := convert.Convert(v, cty.Bool)
		if err != nil || v.IsNull() {
			ok = r.report(hcl.Diagnostics{errorAt(c.cond.Range(), "Invalid condition result", "The condition must be true or false.")}) && ok
			continue
		}
		msg, warnings := r.message(ctx, c)
		r.report(warnings)
		if v.False() {
			d := errorAt(c.cond.Range(), summary, "%s", msg)
			d.Severity, d.Expression, d.EvalContext = sev, c.cond, ctx
			if msg == unknownMessage {
				d = invalidMessage(c, ctx, sev)
			}
			if place != nil {
				place(c, d)
			}
			r.report(hcl.Diagnostics{d})
			ok = ok && sev != hcl.DiagError
		}
	}
	return ok
}

// invalidMessage reports a failed condition whose error message is not
// known while planning at the message, as terraform reports it: the
// message must be made of values known before apply.
func invalidMessage(c *condition, ctx *hcl.EvalContext, sev hcl.DiagnosticSeverity) *hcl.Diagnostic {
	d := errorAt(c.message.Range(), "Invalid error message",
		"The condition failed, but its error message refers to values known only after apply, so it cannot be shown. Build the message from values known while planning.")
	d.Severity, d.Expression, d.EvalContext = sev, c.message, ctx
	return d
}

// setOutputs sets the root module's outputs as the stack outputs; one
// that failed is unknown, which keeps its recorded value. Each known
// output's Terraform type goes with it (engine.OutputTyper), so that an
// export writes a list as a list and a map as a map, as terraform's
// state records them.
func (r *run) setOutputs() {
	out := resource.Object{}
	types := map[string]json.RawMessage{}
	for _, o := range r.c.root.outputs {
		n := r.c.graph.byKey[modKey(r.c.root, "output."+o.name)]
		v, ok := r.rootInst.get("output." + o.name)
		if !ok || r.st[n.idx].failed {
			out[o.name] = resource.Unknown()
			continue
		}
		if v.IsKnown() && v.IsNull() {
			continue // terraform keeps no null root outputs
		}
		out[o.name] = fromCty(v)
		if ty, err := ctyjson.MarshalType(v.Type()); err == nil && v.IsWhollyKnown() {
			types[o.name] = ty
		}
	}
	if t, ok := r.mon.(engine.OutputTyper); ok {
		t.SetStackOutputTypes(types)
	}
	if r.opts.OutputTypes != nil {
		r.opts.OutputTypes(types)
	}
	r.mon.SetStackOutputs(out)
}

// fail reports one error at a range.
func (r *run) fail(rng hcl.Range, summary, format string, args ...any) bool {
	return r.report(hcl.Diagnostics{errorAt(rng, summary, format, args...)})
}

var _ = fmt.Sprintf
