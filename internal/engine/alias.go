package engine

import (
	"fmt"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Alias names an identity a resource had before, as Pulumi's `aliases`
// option does: either a full URN, or the parts of the old URN that differ
// from the resource's own (the rest are taken from the resource). A
// recorded resource found under an alias is taken over: its state entry
// moves to the new URN, so renaming a resource or moving it under a parent
// is not a replacement.
type Alias struct {
	// URN is the old URN; when set, the fields below are ignored.
	URN resource.URN
	// Name is the old name; "" means the resource's own.
	Name string
	// Type is the old type; "" means the resource's own.
	Type string
	// Parent is the old parent's URN; "" means the resource's own parent,
	// unless NoParent says the resource had none.
	Parent   resource.URN
	NoParent bool
	// Stack and Project are the old stack and project; "" means this one.
	Stack, Project string
}

// aliasURNs computes the URNs a registration's aliases name.
func (d *deployment) aliasURNs(reg *Registration) []resource.URN {
	out := make([]resource.URN, 0, len(reg.Aliases))
	for _, a := range reg.Aliases {
		if a.URN != "" {
			out = append(out, a.URN)
			continue
		}
		name, typ, parent := pick(a.Name, reg.Name), pick(a.Type, reg.Type), reg.Parent
		if a.NoParent {
			parent = ""
		} else if a.Parent != "" {
			parent = a.Parent
		}
		parentType := ""
		if parent != "" {
			parentType = parent.QualifiedType()
		}
		out = append(out, resource.NewURN(pick(a.Stack, d.opts.Stack), pick(a.Project, d.opts.Project), parentType, typ, name))
	}
	return out
}

func pick(s, otherwise string) string {
	if s != "" {
		return s
	}
	return otherwise
}

// adoptAlias generates and runs the rename that takes over, for a registration with no recorded resource of
// its own, the recorded resource found under its first alias that has one:
// one journaled write moves the entry to urn and repoints everything that
// referred to it. An alias the program registers too is an error.
func (d *deployment) adoptAlias(urn resource.URN, reg *Registration) error {
	if len(reg.Aliases) == 0 || d.recs.current(urn) != nil || !d.targets.has(urn) {
		return nil
	}
	for _, a := range d.aliasURNs(reg) {
		if a == urn {
			continue
		}
		old := d.recs.current(a)
		d.mu.Lock()
		other, taken := d.registered[a], d.aliased[a]
		if old != nil && other == nil && taken == "" {
			d.aliased[a] = urn
		}
		d.mu.Unlock()
		switch {
		case old == nil:
			continue
		case other != nil:
			return fmt.Errorf("resource %s names %s as an alias, but the program registers %s too; remove the alias or that resource", urn, a, a)
		case taken != "":
			return fmt.Errorf("resources %s and %s both name %s as an alias; only one can take over its state", taken, urn, a)
		}
		_, err := d.x.run(renameStep{old: old, urn: urn})
		return err
	}
	return nil
}
