package engine

import (
	"fmt"
	"strings"

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

// aliasURNs computes the URNs a registration's own aliases name.
func (d *deployment) aliasURNs(reg *Registration) []resource.URN {
	out := make([]resource.URN, 0, len(reg.Aliases))
	for _, a := range reg.Aliases {
		out = append(out, d.aliasURN(reg, a))
	}
	return out
}

// aliasURN is the URN one alias names: the alias's parts, the rest the
// registration's own.
func (d *deployment) aliasURN(reg *Registration, a Alias) resource.URN {
	if a.URN != "" {
		return a.URN
	}
	parent := reg.Parent
	if a.NoParent {
		parent = ""
	} else if a.Parent != "" {
		parent = a.Parent
	}
	parentType := ""
	if parent != "" {
		parentType = parent.QualifiedType()
	}
	return resource.NewURN(pick(a.Stack, d.opts.Stack), pick(a.Project, d.opts.Project), parentType, pick(a.Type, reg.Type), pick(a.Name, reg.Name))
}

// allAliases is every URN a registration may be recorded under: its own
// aliases, then, for each URN its parent may be recorded under
// (parentAliases, the parent's own and inherited), the URN the resource
// had under that old parent, both as it is named now and as each of its
// own aliases names it. A renamed or re-typed component thus keeps its
// children without an alias on each, as in Pulumi. Duplicates are dropped.
func (d *deployment) allAliases(reg *Registration, parentAliases []resource.URN) []resource.URN {
	own := d.aliasURNs(reg)
	var out []resource.URN
	seen := map[resource.URN]bool{}
	add := func(u resource.URN) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	for _, u := range own {
		add(u)
	}
	for _, pa := range parentAliases {
		add(underOldParent(reg.Type, reg.Name, reg.Parent.Name(), pa))
		for _, u := range own {
			add(underOldParent(u.Type(), u.Name(), reg.Parent.Name(), pa))
		}
	}
	return out
}

// underOldParent is the URN a child of type typ and name had when its
// parent, now named parentName, was recorded as oldParent. A child named
// after its parent ("app-bucket" under "app", Pulumi's convention) had
// the parent's old name as its prefix then.
func underOldParent(typ, name, parentName string, oldParent resource.URN) resource.URN {
	if rest, ok := strings.CutPrefix(name, parentName); ok && parentName != "" {
		name = oldParent.Name() + rest
	}
	return resource.NewURN(oldParent.Stack(), oldParent.Project(), oldParent.QualifiedType(), typ, name)
}

func pick(s, otherwise string) string {
	if s != "" {
		return s
	}
	return otherwise
}

// adoptAlias generates and runs the rename that takes over, for a registration with no recorded resource of
// its own, the recorded resource found under its first alias (own or
// inherited from its parent, see allAliases) that has one:
// one journaled write moves the entry to urn and repoints everything that
// referred to it. An alias the program registers too is an error.
func (d *deployment) adoptAlias(urn resource.URN) error {
	d.mu.Lock()
	var aliases []resource.URN
	if rs := d.registered[urn]; rs != nil {
		aliases = rs.aliases
	}
	d.mu.Unlock()
	if len(aliases) == 0 || d.recs.current(urn) != nil || !d.targets.has(urn) {
		return nil
	}
	for _, a := range aliases {
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
