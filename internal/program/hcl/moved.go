package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plinth-iac/plinth/internal/engine"
)

// moveStmt is a moved block: what was at from is now at to. The engine
// carries it out as an alias: the registration at to names from's URN,
// and the recorded resource is renamed, not replaced.
type moveStmt struct {
	from, to tfAddr
	rng      hcl.Range
}

var movedSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}}}

func (l *loader) movedBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(movedSchema)
	l.diags = append(l.diags, ds...)
	from, ok1 := l.addrAttr(content, "from")
	to, ok2 := l.addrAttr(content, "to")
	if !ok1 || !ok2 {
		return
	}
	if d := checkMove(from, to, b.DefRange); d != nil {
		l.diags = append(l.diags, d)
		return
	}
	if from.String() == to.String() {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Redundant move statement",
			Detail: fmt.Sprintf("This statement declares a move from %s to the same address, which is the same as not declaring this move at all.", from), Subject: b.DefRange.Ptr()})
		return
	}
	m.moves = append(m.moves, &moveStmt{from: from, to: to, rng: b.DefRange})
}

// checkMove refuses moves Terraform refuses: between a module and a
// resource, of data sources, and between resource types.
func checkMove(from, to tfAddr, rng hcl.Range) *hcl.Diagnostic {
	switch {
	case from.dataSrc || to.dataSrc:
		return errorAt(rng, "Invalid \"moved\" address", "Data source address is not allowed: a moved block can move only managed resources and modules.")
	case from.isModule() != to.isModule():
		return errorAt(rng, "Invalid \"moved\" addresses", "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.")
	case !from.isModule() && from.typ != to.typ:
		return errorAt(rng, "Resource type mismatch", "This statement declares a move from %s to %s, which is a resource of a different type.", from, to)
	case !from.isModule() && (from.key == "") != (to.key == ""):
		return errorAt(rng, "Invalid \"moved\" addresses", "The \"from\" and \"to\" addresses must both name a whole resource or both a resource instance: %s and %s do not.", from, to)
	}
	return nil
}

// checkMovesDeclared refuses a move from something the module still
// declares, as terraform does: the move would have nothing to rename.
func checkMovesDeclared(m *Module) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, mv := range m.moves {
		f := mv.from
		if f.module != "" && !f.isModule() || f.key != "" || f.modKey {
			continue // an instance, or in a child module: not checked statically
		}
		noun, rng, found := "resource", hcl.Range{}, false
		if f.isModule() {
			noun = "module call"
			rng, found = declaredCall(m, strings.TrimPrefix(f.module, "module."))
		} else {
			rng, found = declaredResource(m, f.resource())
		}
		if found {
			out = append(out, errorAt(mv.rng, "Moved object still exists",
				"This statement declares a move from %s, but that %s is still declared at %s.\n\nChange your configuration so that this %s will be declared as %s instead.", f, noun, rng, noun, mv.to))
		}
	}
	return out
}

func declaredResource(m *Module, addr string) (hcl.Range, bool) {
	for _, r := range m.resources {
		if r.mode == managed && r.addr() == addr {
			return r.rng, true
		}
	}
	return hcl.Range{}, false
}

func declaredCall(m *Module, name string) (hcl.Range, bool) {
	if strings.Contains(name, ".") {
		return hcl.Range{}, false
	}
	for _, c := range m.calls {
		if c.name == name {
			return c.rng, true
		}
	}
	return hcl.Range{}, false
}

// movedFrom lists the addresses a resource instance named name had
// before, nearest first, following chains of moved blocks declared in
// its module instance and the instances above it.
func movedFrom(inst *modInst, name string) []string {
	type scoped struct {
		mv     *moveStmt
		prefix string
	}
	var stmts []scoped
	for i := inst; i != nil; i = i.parent {
		for _, mv := range i.mod.moves {
			stmts = append(stmts, scoped{mv, i.prefix})
		}
	}
	used := make([]bool, len(stmts))
	var out []string
	for cur, found := name, true; found; {
		found = false
		for j, s := range stmts {
			if used[j] {
				continue
			}
			if rest, ok := under(cur, s.prefix+s.mv.to.String()); ok {
				cur = s.prefix + s.mv.from.String() + rest
				out, used[j], found = append(out, cur), true, true
				break
			}
		}
	}
	return out
}

// impliedMove is the address an instance had before count was added or
// taken away, as terraform moves a to a[0] and back by itself.
func impliedMove(rc *resourceConfig, name string, k instanceKey) (string, bool) {
	switch {
	case rc.count != nil && k.suffix() == "[0]":
		return strings.TrimSuffix(name, "[0]"), true
	case rc.count == nil && rc.forEach == nil:
		return name + "[0]", true
	}
	return "", false
}

// moveAliases sets a registration's aliases from the moved blocks and
// the implied moves. A move whose target the state already holds is not
// carried out, as terraform does: a warning says so, and the object at
// the old address, no longer in the configuration, is planned for
// destruction.
func (r *run) moveAliases(n *node, inst *modInst, k instanceKey, reg *engine.Registration) bool {
	from := movedFrom(inst, reg.Name)
	urn := r.mon.URN(reg.Type, reg.Name, "")
	for _, old := range from {
		if r.mon.Recorded(urn) && r.mon.Recorded(r.mon.URN(reg.Type, old, "")) {
			r.report(hcl.Diagnostics{unresolvedMove(n.resource.rng, old, reg.Name)})
			break // the addresses before old are old's history, not reg's
		}
		reg.Aliases = append(reg.Aliases, engine.Alias{URN: r.mon.URN(reg.Type, old, "")})
	}
	if old, ok := impliedMove(n.resource, reg.Name, k); ok && !r.mon.Recorded(urn) {
		reg.Aliases = append(reg.Aliases, engine.Alias{URN: r.mon.URN(reg.Type, old, "")})
	}
	return true
}

// unresolvedMove is terraform's warning for a move onto an address the
// state already holds.
func unresolvedMove(rng hcl.Range, from, to string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unresolved resource instance address changes", Subject: rng.Ptr(),
		Detail: fmt.Sprintf("plinth tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:\n  - %s could not move to %s\n\n"+
			"plinth has planned to destroy these objects. If that is not what you want, resolve the conflict first with `plinth state rm %s` or `plinth state mv %s ...`, or remove the moved block, and run again.", from, to, from, from)}
}
