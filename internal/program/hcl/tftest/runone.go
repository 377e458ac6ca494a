package tftest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
	"github.com/plinth-iac/plinth/internal/state"
)

// result is how a run went.
type result struct {
	status Status
	stop   bool // an error: the file's later runs are skipped
	diags  []diag
	scope  *tfhcl.Scoped
}

// failed is a result that fails the run and stops the file.
func failed(ds ...diag) result { return result{status: Fail, stop: true, diags: ds} }

// runOne plans, and for command = apply applies, the run's module with
// its variables, then checks expect_failures and the assertions.
func (fr *fileRunner) runOne(ctx context.Context, r *Run) result {
	ms, err := fr.module(r)
	if err != nil {
		return failed(diagsOf(err)...)
	}
	rv, ds := fr.variables(r, ms.cfg)
	mocks, more := fr.mocksFor(r)
	if ds = append(ds, more...); ds.HasErrors() {
		return failed(fromHCL(ds)...)
	}
	warns := &collector{}
	ev, err := ms.cfg.Program(nil, fr.programOptions(rv, warns.add, false))
	if err != nil {
		return fr.judge(r, ms, nil, err, warns.take(), r.Command == Apply)
	}
	sc := ev.WithOverrides(mocks.Overrides()).Scoped()
	if r.plan != nil && r.plan.refreshOnly {
		return fr.refreshOnly(ctx, r, ms, sc, mocks, rv, warns)
	}
	plan := sc.Planning()
	opts, bad := r.withPlanOptions(ctx, fr.c.Options(nil, mocks), ms.snap, plan)
	if len(bad) > 0 {
		return failed(bad...)
	}
	if len(opts.Targets) > 0 {
		warns.take() // learning the targets evaluated the configuration once already
		plan = sc.Planning()
	}
	_, err = engine.Preview(ctx, plan, ms.snap, opts)
	if r.Command == Plan || err != nil {
		return fr.judge(r, ms, plan, err, warns.take(), r.Command == Apply)
	}
	warns.take() // the apply evaluates the configuration again and says it again
	j := state.NewMemoryJournal(ms.snap)
	upd := fr.c.Options(j, mocks)
	upd.Targets, upd.Replace = opts.Targets, opts.Replace
	_, err = engine.Update(ctx, sc, ms.snap, upd)
	ms.snap, ms.vars, ms.mocks = j.Snapshot(), rv, mocks
	return fr.judge(r, ms, sc, err, warns.take(), false)
}

// judge decides a run from the diagnostics of its plan or apply, the
// expected failures and then the assertions. planOfApply is set when a
// run that was to apply stopped at its plan.
func (fr *fileRunner) judge(r *Run, ms *modState, sc *tfhcl.Scoped, err error, warns []program.Diagnostic, planOfApply bool) result {
	res := result{status: Pass, scope: sc}
	if sc != nil && sc.Ran() {
		fr.outputs[r.Name] = cty.ObjectVal(sc.Outputs())
	}
	expected, bad := fr.expectations(r, ms)
	if len(bad) > 0 {
		return failed(bad...)
	}
	met, errs, others := expected.sort(append(diagsOf(err), fromProgram(warns)...), planOfApply)
	res.diags = others
	if planOfApply && len(met) > 0 {
		res.diags = append(res.diags, warningAt(r.expectAt, "Expected failure while planning",
			"An object in expect_failures failed while the run was planned, so the apply this run asks for could not be made; the run fails and the diagnostic is shown below. Give the run command = plan to test a failure of the plan."))
	}
	for _, t := range r.expect {
		if addr := traversalAddr(t); !met[addr] && !(planOfApply && len(met) > 0) {
			errs = append(errs, diagAt(t.SourceRange(), hcl.DiagError, "Missing expected failure",
				"The run expected %s to fail, and it did not: its conditions all held. Check the variables the run gives, or remove %s from expect_failures.", addr, addr))
		}
	}
	if len(errs) > 0 {
		res.diags = append(res.diags, errs...)
		res.status, res.stop = Fail, true
		return res
	}
	return fr.asserts(r, sc, res)
}

// asserts evaluates the run's assertions in the module's scope after the
// run. A false one fails the run; one that cannot be evaluated (an error,
// or a value unknown until apply) fails it and stops the file.
func (fr *fileRunner) asserts(r *Run, sc *tfhcl.Scoped, res result) result {
	if sc == nil || !sc.Ran() || len(r.asserts) == 0 {
		return res
	}
	ctx := sc.Context(map[string]cty.Value{"run": cty.ObjectVal(fr.outputs)})
	for _, a := range r.asserts {
		d, warnings, stop := evalAssert(ctx, a)
		res.diags = append(res.diags, warnings...)
		if d == nil {
			continue
		}
		res.diags = append(res.diags, *d)
		res.status = Fail
		res.stop = res.stop || stop
	}
	return res
}

// evalAssert checks one assertion: nil when it holds. warnings are about
// its error message (one that would show a sensitive or ephemeral value
// is withheld), whether it holds or not.
func evalAssert(ctx *hcl.EvalContext, a assert) (d *diag, warnings []diag, stop bool) {
	d, stop = checkAssert(ctx, a)
	if d != nil && stop {
		return d, nil, stop
	}
	v, ds := a.message.Value(ctx)
	msg, ds := tfhcl.ErrorMessage(v, ds, a.message.Range())
	warnings = fromHCL(ds)
	if d != nil {
		d.detail = msg
	}
	return d, warnings, stop
}

// checkAssert evaluates one assertion's condition: nil when it holds; a
// failed one's message is filled in by evalAssert.
func checkAssert(ctx *hcl.EvalContext, a assert) (*diag, bool) {
	if d := undeclaredOutput(ctx, a.cond); d != nil {
		return d, true
	}
	v, ds := a.cond.Value(ctx)
	if ds.HasErrors() {
		d := fromHCL(ds)[0]
		return &d, true
	}
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() {
		d := diagAt(a.cond.Range(), hcl.DiagError, "Unknown condition value",
			"The condition refers to a value that is not known until the configuration is applied, and this run only plans it (command = plan). Test the value in a run with command = apply, or leave it out of the condition.")
		return &d, true
	}
	// A condition converts to bool as terraform converts it: the strings
	// "true" and "false" hold.
	if b, err := convert.Convert(v, cty.Bool); err == nil {
		v = b
	}
	if v.IsNull() || v.Type() != cty.Bool {
		d := diagAt(a.cond.Range(), hcl.DiagError, "Invalid condition result",
			"The condition of an assert block must be true or false; this one is %s.", friendly(v))
		return &d, true
	}
	if v.True() {
		return nil, false
	}
	d := diagAt(a.cond.Range(), hcl.DiagError, "Test assertion failed", "")
	return &d, false
}

// undeclaredOutput is an error for a reference to an output the module
// does not declare, which would otherwise be an unsupported attribute of
// the output object.
func undeclaredOutput(ctx *hcl.EvalContext, e hcl.Expression) *diag {
	outs := ctx.Variables["output"]
	for _, t := range e.Variables() {
		if t.RootName() != "output" || len(t) < 2 {
			continue
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if ok && !outs.Type().HasAttribute(a.Name) {
			d := diagAt(t.SourceRange(), hcl.DiagError, "Reference to undeclared output value",
				"The module this run tests declares no output %q. Name one of its outputs, or declare it in the module.", a.Name)
			return &d
		}
	}
	return nil
}

func friendly(v cty.Value) string {
	if v.IsNull() {
		return "null"
	}
	return "a " + v.Type().FriendlyName()
}

// expected maps each condition of the objects a run expects to fail to
// the object's address.
type expected map[tfhcl.ConditionAt]string

// match is the address of the expected object a diagnostic is about, or
// "".
func (e expected) match(d diag) string {
	return e[tfhcl.ConditionAt{File: d.file, Line: d.line, Column: d.column}]
}

// sort sorts a run's diagnostics: which expected objects failed (met),
// the errors that fail the run, and the warnings. An expected failure is
// no error, except while an apply run plans, when it stops the apply; a
// check block's failure not expected is an error, as in terraform test.
func (e expected) sort(ds []diag, planOfApply bool) (met map[string]bool, errs, warns []diag) {
	met = map[string]bool{}
	for _, d := range ds {
		if addr := e.match(d); addr != "" {
			met[addr] = true
			if planOfApply && d.severity == hcl.DiagError {
				errs = append(errs, d)
			}
			continue
		}
		if d.severity == hcl.DiagWarning && d.summary == "Check block assertion failed" {
			d.severity = hcl.DiagError
		}
		if d.severity == hcl.DiagError {
			errs = append(errs, d)
		} else {
			warns = append(warns, d)
		}
	}
	return met, errs, warns
}

// expectations resolves a run's expect_failures in its module.
func (fr *fileRunner) expectations(r *Run, ms *modState) (expected, []diag) {
	out := expected{}
	var bad []diag
	for _, t := range r.expect {
		addr := traversalAddr(t)
		at, ok := ms.cfg.Checkable(addr)
		if !ok {
			bad = append(bad, diagAt(t.SourceRange(), hcl.DiagError, "Invalid expect_failures reference",
				"%s is not a variable, output, resource, data source or check block of the module this run tests. Name one that is, such as var.NAME or check.NAME.", addr))
			continue
		}
		for _, a := range at {
			out[a] = addr
		}
	}
	return out, bad
}

// traversalAddr is a reference as text: var.name, aws_s3_bucket.b.
func traversalAddr(t hcl.Traversal) string {
	s := t.RootName()
	for _, step := range t[1:] {
		if a, ok := step.(hcl.TraverseAttr); ok {
			s += "." + a.Name
		}
	}
	return s
}

// runVars are the variables a test file gives a run, in a .tfvars file.
type runVars struct {
	path string
	set  map[string]bool // the names it sets
}

// variables evaluates the file's and the run's variables (the run's
// winning) and writes those the module declares to a .tfvars file for
// the run.
func (fr *fileRunner) variables(r *Run, cfg *tfhcl.Config) (runVars, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"run": cty.ObjectVal(fr.outputs)}, Functions: funcs.Table(fr.c.Dir)}
	fileVars := map[string]cty.Value{}
	var ds hcl.Diagnostics
	for _, a := range fr.f.vars {
		v, more := a.Expr.Value(ctx)
		ds = append(ds, more...)
		fileVars[a.Name] = v
	}
	ctx.Variables["var"] = cty.ObjectVal(fileVars)
	vals := map[string]cty.Value{}
	for k, v := range fileVars {
		vals[k] = v
	}
	for _, a := range r.vars {
		v, more := a.Expr.Value(ctx)
		ds = append(ds, more...)
		if !more.HasErrors() && !v.IsWhollyKnown() {
			ds = append(ds, errorAt(a.Expr.Range(), "Reference to unknown value",
				"The value of variable %q is not known: it refers to a value an earlier plan-only run left unknown. Refer to a run with command = apply.", a.Name))
		}
		vals[a.Name] = v
	}
	if ds.HasErrors() {
		return runVars{}, ds
	}
	rv := runVars{path: filepath.Join(fr.tmp, r.Name+".tfvars"), set: map[string]bool{}}
	return rv, append(ds, writeVars(rv, cfg.Variables(), vals)...)
}

// writeVars writes the values of the declared variables as a .tfvars
// file.
func writeVars(rv runVars, declared []string, vals map[string]cty.Value) hcl.Diagnostics {
	f := hclwrite.NewEmptyFile()
	for _, name := range declared {
		if v, ok := vals[name]; ok {
			v, _ = v.UnmarkDeep()
			f.Body().SetAttributeValue(name, v)
			rv.set[name] = true
		}
	}
	if err := os.WriteFile(rv.path, f.Bytes(), 0o600); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot write the run's variables", Detail: err.Error()}}
	}
	return nil
}

// programOptions are the options a run's program is built with. Its
// variables, later ones winning, are terraform test's: the module's own
// (defaults, TF_VAR_, terraform.tfvars, *.auto.tfvars), then --var-file
// and --var, then the test directory's terraform.tfvars, then the test
// file's and the run's. --var comes last in a program's options, so a
// --var that a later source sets is left out.
func (fr *fileRunner) programOptions(rv runVars, warn func(program.Diagnostic), destroy bool) program.Options {
	var files []string
	for _, f := range fr.c.VarFiles {
		if !filepath.IsAbs(f) {
			f = filepath.Join(fr.main.Dir(), f) // a module block's run reads them too
		}
		files = append(files, f)
	}
	if fr.testVars.path != "" {
		files = append(files, fr.testVars.path)
	}
	if rv.path != "" {
		files = append(files, rv.path)
	}
	var vars []string
	for _, v := range fr.c.Vars {
		name, _, _ := strings.Cut(v, "=")
		if !rv.set[name] && !fr.testVars.set[name] {
			vars = append(vars, v)
		}
	}
	return program.Options{Warn: warn, Stack: "default", Vars: vars, VarFiles: files, Getenv: fr.c.Getenv, Destroy: destroy}
}

// testDirVars reads the names the test directory's terraform.tfvars
// sets, if there is one.
func testDirVars(dir string) (runVars, error) {
	path, err := filepath.Abs(filepath.Join(dir, "tests", "terraform.tfvars"))
	if err != nil {
		return runVars{}, err
	}
	if _, err := os.Stat(path); err != nil {
		return runVars{}, nil
	}
	f, ds := hclparse.NewParser().ParseHCLFile(path)
	if ds.HasErrors() {
		return runVars{}, toDiagnostics(ds)
	}
	attrs, ds := f.Body.JustAttributes()
	if ds.HasErrors() {
		return runVars{}, toDiagnostics(ds)
	}
	rv := runVars{path: path, set: map[string]bool{}}
	for name := range attrs {
		rv.set[name] = true
	}
	return rv, nil
}

// collector gathers warnings from any goroutine.
type collector struct {
	mu sync.Mutex
	ds []program.Diagnostic
}

func (c *collector) add(d program.Diagnostic) {
	c.mu.Lock()
	c.ds = append(c.ds, d)
	c.mu.Unlock()
}

// take returns the warnings gathered, in file order, and forgets them.
func (c *collector) take() []program.Diagnostic {
	c.mu.Lock()
	ds := c.ds
	c.ds = nil
	c.mu.Unlock()
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		return ds[i].Line < ds[j].Line
	})
	return ds
}

// diagsOf lists an error's diagnostics: the program's own, or the error
// as one.
func diagsOf(err error) []diag {
	if err == nil {
		return nil
	}
	var pds program.Diagnostics
	if errors.As(err, &pds) {
		return fromProgram(pds)
	}
	var pd program.Diagnostic
	if errors.As(err, &pd) {
		return fromProgram([]program.Diagnostic{pd})
	}
	return []diag{errorDiag(err)}
}
