package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// targetSet decides which resources an operation may touch: with targets,
// only those; with excludes, all but those.
type targetSet struct {
	include map[resource.URN]bool // nil: every resource
	exclude map[resource.URN]bool
}

func newTargetSet(targets, excludes []resource.URN) *targetSet {
	t := &targetSet{exclude: map[resource.URN]bool{}}
	if len(targets) > 0 {
		t.include = map[resource.URN]bool{}
		for _, u := range targets {
			t.include[u] = true
		}
	}
	for _, u := range excludes {
		t.exclude[u] = true
	}
	return t
}

func (t *targetSet) has(urn resource.URN) bool {
	if t.exclude[urn] {
		return false
	}
	return t.include == nil || t.include[urn]
}

// limited reports whether the operation is limited at all.
func (t *targetSet) limited() bool { return t.include != nil || len(t.exclude) > 0 }

// expandTargets prepares an update's or a preview's targets: it learns the
// program's resources and what each refers to from a preview pass, refuses
// a target or exclude that names neither a resource of the program nor one
// in the state, and adds to the targets everything they depend on,
// transitively. Update and Preview both call it, so a preview shows exactly
// what the update will do.
func expandTargets(ctx context.Context, prog Program, base *state.Snapshot, opts *Options) error {
	if len(opts.Targets) == 0 && len(opts.Excludes) == 0 {
		return nil
	}
	graph, err := learnGraph(ctx, prog, base, *opts)
	if err != nil {
		return err
	}
	known := func(u resource.URN) bool {
		if _, ok := graph[u]; ok {
			return true
		}
		return base != nil && inState(base, u)
	}
	if err := unmatched(opts, known); err != nil {
		return err
	}
	if len(opts.Targets) > 0 {
		opts.Targets = closure(graph, opts.Targets)
	}
	return nil
}

// learnGraph runs a preview of the program with no targets and no events,
// recording each registration's URN and what it refers to.
func learnGraph(ctx context.Context, prog Program, base *state.Snapshot, opts Options) (map[resource.URN][]resource.URN, error) {
	var mu sync.Mutex
	graph := map[resource.URN][]resource.URN{}
	opts.Targets, opts.Excludes, opts.Events, opts.Journal = nil, nil, nil, nil
	rec := recordingProgram{prog: prog, seen: func(urn resource.URN, refs []resource.URN) {
		mu.Lock()
		graph[urn] = refs
		mu.Unlock()
	}}
	if _, err := run(ctx, rec, base, &opts, true); err != nil {
		return nil, fmt.Errorf("working out what the targets depend on: %w", err)
	}
	return graph, nil
}

// closure returns the targets and everything they refer to, transitively.
func closure(graph map[resource.URN][]resource.URN, targets []resource.URN) []resource.URN {
	seen := map[resource.URN]bool{}
	var out []resource.URN
	var visit func(u resource.URN)
	visit = func(u resource.URN) {
		if seen[u] {
			return
		}
		seen[u] = true
		out = append(out, u)
		for _, r := range graph[u] {
			visit(r)
		}
	}
	for _, t := range targets {
		visit(t)
	}
	return out
}

func inState(s *state.Snapshot, u resource.URN) bool {
	for _, r := range s.Resources {
		if r.URN == u {
			return true
		}
	}
	return false
}

// checkTargetsInState refuses targets and excludes that name no resource
// in the state (refresh and destroy act on the state alone).
func checkTargetsInState(base *state.Snapshot, opts *Options) error {
	return unmatched(opts, func(u resource.URN) bool { return base != nil && inState(base, u) })
}

// UnmatchedTargetError reports targets or excludes that name no resource.
type UnmatchedTargetError struct {
	Targets, Excludes []resource.URN
}

func (e *UnmatchedTargetError) Error() string {
	var parts []string
	for _, u := range e.Targets {
		parts = append(parts, "target "+string(u))
	}
	for _, u := range e.Excludes {
		parts = append(parts, "exclude "+string(u))
	}
	return fmt.Sprintf("%s matches no resource of the program or the state; check the URN against `plinth state ls` (a URN names the stack, project, type and name)", strings.Join(parts, " and "))
}

func unmatched(opts *Options, known func(resource.URN) bool) error {
	e := &UnmatchedTargetError{}
	for _, u := range opts.Targets {
		if !known(u) {
			e.Targets = append(e.Targets, u)
		}
	}
	for _, u := range opts.Excludes {
		if !known(u) {
			e.Excludes = append(e.Excludes, u)
		}
	}
	if len(e.Targets)+len(e.Excludes) > 0 {
		return e
	}
	return nil
}
