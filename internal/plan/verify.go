package plan

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/engine"
)

func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the program for the plan's digest: %w", err)
	}
	return data, nil
}

// Check compares what the plan was made against with what up runs
// against, and names everything that differs.
func (p *Plan) Check(path string, h Header, program string) error {
	var diffs []string
	if p.Stack != h.Stack || p.Project != h.Project {
		diffs = append(diffs, fmt.Sprintf("it was made for stack %s of project %s, and this is stack %s of project %s", p.Stack, p.Project, h.Stack, h.Project))
	}
	if p.State != h.State {
		diffs = append(diffs, fmt.Sprintf("the stack's state changed since (it was made at %v, the state is now at %v): another command recorded something in between", p.State, h.State))
	}
	if p.Program != program {
		diffs = append(diffs, "the program, the stack config or the -var arguments changed since")
	}
	if !slices.Equal(p.Targets, h.Targets) || !slices.Equal(p.Excludes, h.Excludes) {
		diffs = append(diffs, fmt.Sprintf("it was made with --target %q --exclude %q, and up was given %q and %q; up --plan uses the plan's", p.Targets, p.Excludes, h.Targets, h.Excludes))
	}
	if !slices.Equal(p.Replaces, h.Replaces) {
		diffs = append(diffs, fmt.Sprintf("it was made with --replace %q, and up was given %q; up --plan uses the plan's", p.Replaces, h.Replaces))
	}
	if p.Plinth != h.Plinth {
		diffs = append(diffs, fmt.Sprintf("it was made by plinth %s, and this is plinth %s", p.Plinth, h.Plinth))
	}
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("the plan %s no longer applies: %s. Nothing was changed; run `plinth preview --save-plan %s` again, check it, then `plinth up --plan %s`",
		path, strings.Join(diffs, "; "), path, path)
}

// Verifier checks an update's steps against the plan: engine
// Options.CheckStep for `up --plan`.
type Verifier struct {
	p    *Plan
	path string
	mu   sync.Mutex
	left map[string][]Step
}

// Verifier returns a verifier of the plan's steps; path names the plan
// in its errors.
func (p *Plan) Verifier(path string) *Verifier {
	v := &Verifier{p: p, path: path, left: map[string][]Step{}}
	for _, s := range p.Steps {
		v.left[s.key()] = append(v.left[s.key()], s)
	}
	return v
}

// Check refuses a step the plan does not hold, or holds with other
// inputs; it takes a step it allows off the plan.
func (v *Verifier) Check(s engine.PlannedStep) error {
	got := v.p.step(s)
	v.mu.Lock()
	defer v.mu.Unlock()
	cands := v.left[got.key()]
	for i, c := range cands {
		if c.matches(got) {
			v.left[got.key()] = slices.Delete(cands, i, i+1)
			return nil
		}
	}
	why := "the plan has no such step"
	if len(cands) > 0 {
		why = "the plan has it with other inputs: " + cands[0].differences(got)
	}
	return fmt.Errorf("%s %s is not in the plan %s (%s), so it was not started. The update stopped; what it did is recorded. "+
		"Run `plinth preview` to see why the program now asks for something else", s.Op, s.URN, v.path, why)
}

// matches reports whether got, a step of the update, is the planned s:
// the same inputs, where the plan knew them.
func (s Step) matches(got Step) bool {
	return s.differences(got) == ""
}

// differences names the inputs of got that differ from the planned s.
func (s Step) differences(got Step) string {
	var diff []string
	for k, want := range s.Inputs {
		g, ok := got.Inputs[k]
		if !ok || (want != Unknown && g != want) {
			diff = append(diff, k)
		}
	}
	for k := range got.Inputs {
		if _, ok := s.Inputs[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	if len(diff) == 0 {
		return ""
	}
	return "inputs " + strings.Join(diff, ", ")
}

// Unapplied is an error naming the planned steps the update did not
// take, nil if it took them all.
func (v *Verifier) Unapplied() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	var left []string
	for _, ss := range v.left {
		for _, s := range ss {
			left = append(left, s.Op+" "+s.URN)
		}
	}
	if len(left) == 0 {
		return nil
	}
	sort.Strings(left)
	return fmt.Errorf("the update did not take %d steps of the plan %s: %s. Run `plinth preview` to see what the stack needs now",
		len(left), v.path, strings.Join(left, ", "))
}
