package engine

import "github.com/plinth-iac/plinth/sdk/resource"

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
