package state

import (
	"errors"
	"fmt"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// CheckIdentity checks that a resource can be recorded under its URN and
// type: the URN follows the grammar (resource.ParseURN) and the type is
// one a resource of its kind may have (resource.ValidateCustomType for a
// resource a provider manages, resource.ValidateType for a component).
// It is the one rule for both sides: the loader (Verify) refuses a state
// that breaks it, the engine refuses a registration that breaks it before
// any provider is called, and no journal entry that breaks it is written
// (EncodeEntry), so what plinth writes always loads.
func CheckIdentity(urn resource.URN, typ string, custom bool) error {
	return identityChecker(nil).check(urn, typ, custom)
}

// identityChecker is CheckIdentity for many resources: it validates each
// distinct type once (a stack's resources share a few types), keeping
// the verdicts; a nil one keeps none.
type identityChecker map[typeOf]error

// typeOf is a type as a resource of one kind (custom or not) has it.
type typeOf struct {
	typ    string
	custom bool
}

func (ic identityChecker) check(urn resource.URN, typ string, custom bool) error {
	if _, err := resource.ParseURN(string(urn)); err != nil {
		return err
	}
	err, known := ic[typeOf{typ, custom}]
	if !known {
		validate := resource.ValidateType
		if custom {
			validate = resource.ValidateCustomType
		}
		err = validate(typ)
		if ic != nil {
			ic[typeOf{typ, custom}] = err
		}
	}
	if err != nil {
		return fmt.Errorf("resource %s: %w", urn, err)
	}
	return nil
}

// Verify checks a snapshot's integrity: every URN and type is well formed
// (CheckIdentity); no two
// live resources share a URN (only pending deletions may); custom resources
// have an ID; a resource's parent, provider and dependencies appear before
// it; provider references name a provider resource with that ID; pending
// operations name valid URNs. It returns every problem found, joined.
func (s *Snapshot) Verify() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	seen := make(map[resource.URN]*Resource, len(s.Resources)) // every URN seen so far, preferring live
	providers := map[string]bool{}                             // provider refs seen so far
	identities := identityChecker{}
	last := lastInGroup(s.Resources)
	for i, r := range s.Resources {
		if err := identities.check(r.URN, r.Type, r.Custom); err != nil {
			bad("resource %d: %v", i, err)
			continue
		}
		if prev, dup := seen[r.URN]; dup && !prev.Delete && !r.Delete {
			bad("resource %s appears twice", r.URN)
		}
		if r.Custom && r.ID == "" {
			bad("custom resource %s has no ID", r.URN)
		}
		s.verifyReferences(r, seen, providers, bad)
		for _, g := range r.DependencyGroups {
			if j, ok := last[g]; ok && j >= i {
				bad("resource %s: an instance of %s, on which it depends, does not appear before it", r.URN, g)
			}
		}
		if prev, ok := seen[r.URN]; !ok || prev.Delete {
			seen[r.URN] = r
		}
		if r.Custom && IsProviderType(r.Type) {
			providers[ProviderRef(r.URN, r.ID)] = true
		}
	}
	for _, p := range s.Pending {
		if p.Resource == nil {
			bad("a pending %s names no resource", p.Op)
		} else if err := CheckIdentity(p.Resource.URN, p.Resource.Type, p.Resource.Custom); err != nil {
			bad("a pending %s: %v", p.Op, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Snapshot) verifyReferences(r *Resource, seen map[resource.URN]*Resource, providers map[string]bool, bad func(string, ...any)) {
	if r.Parent != "" && seen[r.Parent] == nil {
		bad("resource %s: parent %s does not appear before it", r.URN, r.Parent)
	}
	if r.Provider != "" {
		if _, _, err := ParseProviderRef(r.Provider); err != nil {
			bad("resource %s: %v", r.URN, err)
		} else if !providers[r.Provider] {
			bad("resource %s: provider %s does not appear before it", r.URN, r.Provider)
		}
	} else if r.Custom && !IsProviderType(r.Type) {
		bad("custom resource %s has no provider", r.URN)
	}
	for _, d := range r.Dependencies {
		if seen[d] == nil {
			bad("resource %s: dependency %s does not appear before it", r.URN, d)
		}
	}
	for prop, deps := range r.PropertyDependencies {
		for _, d := range deps {
			if seen[d] == nil {
				bad("resource %s: property %s depends on %s, which does not appear before it", r.URN, prop, d)
			}
		}
	}
}

// lastInGroup maps each dependency group to the position of its last live
// member.
func lastInGroup(rs []*Resource) map[resource.URN]int {
	last := map[resource.URN]int{}
	for i, r := range rs {
		if g, ok := GroupOf(r.URN); ok && !r.Delete {
			last[g] = i
		}
	}
	return last
}

// ProviderTypePrefix starts the type of every provider resource.
const ProviderTypePrefix = "pulumi:providers:"

// IsProviderType reports whether a type token names a provider resource.
func IsProviderType(t string) bool {
	return len(t) > len(ProviderTypePrefix) && t[:len(ProviderTypePrefix)] == ProviderTypePrefix
}
