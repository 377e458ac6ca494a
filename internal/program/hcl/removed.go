package hcl

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// removedStmt is a removed block: the resource or module at from is no
// longer configured. With destroy = false its objects are forgotten (left
// in the world, dropped from the state); otherwise they are destroyed, as
// anything no longer configured is.
type removedStmt struct {
	from    tfAddr
	destroy bool
	rng     hcl.Range
}

var removedSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "connection"}}}

func (l *loader) removedBlock(m *Module, b *hcl.Block) {
	content, ds := b.Body.Content(removedSchema)
	l.diags = append(l.diags, ds...)
	from, ok := l.addrAttr(content, "from")
	if !ok {
		return
	}
	if from.key != "" || from.modKey || from.dataSrc {
		l.diags = append(l.diags, errorAt(content.Attributes["from"].Expr.Range(), "Invalid \"removed\" address",
			"A removed block's \"from\" must name a managed resource (aws_instance.web) or a module call (module.network), without instance keys: %s has one.", from))
		return
	}
	rm := &removedStmt{from: from, destroy: true, rng: b.DefRange}
	l.boolLifecycle(content, "destroy", &rm.destroy)
	m.removeds = append(m.removeds, rm)
}

// checkRefactoring checks a module's moved, removed and (in the root
// module) import blocks once its files and child modules are read.
func (l *loader) checkRefactoring(m *Module) {
	l.diags = append(l.diags, checkMovesDeclared(m)...)
	for _, rm := range m.removeds {
		f := rm.from
		switch {
		case f.isModule():
			if rng, ok := declaredCall(m, f.module[len("module."):]); ok {
				l.diags = append(l.diags, errorAt(rm.rng, "Removed module still exists",
					"This statement declares that %s was removed, but it is still declared in configuration at %s. Remove the module block or this removed block.", f, rng))
			}
		case f.module == "":
			if rng, ok := declaredResource(m, f.resource()); ok {
				l.diags = append(l.diags, errorAt(rm.rng, "Removed resource still exists",
					"This statement declares that %s was removed, but it is still declared in configuration at %s. Remove the resource block or this removed block.", f, rng))
			}
		}
	}
	if m.path == nil {
		l.linkImports(m)
	}
}

// Forget implements engine.Forgetter: the resources removed blocks with
// lifecycle { destroy = false } name are forgotten, not destroyed.
func (ev *Evaluator) Forget(urn resource.URN) bool {
	return forgets(ev.c.root, urn.Name())
}

var _ engine.Forgetter = (*Evaluator)(nil)

// forgets reports whether a removed block with destroy = false in m or
// below names the resource instance called name (relative to m).
func forgets(m *Module, name string) bool {
	for _, rm := range m.removeds {
		if _, ok := under(name, rm.from.String()); ok && !rm.destroy {
			return true
		}
	}
	for _, c := range m.calls {
		rest, ok := under(name, "module."+c.name)
		if !ok || c.module == nil || rest == "" {
			continue
		}
		if strings.HasPrefix(rest, "[") {
			_, rest, _ = strings.Cut(rest, "].")
		} else {
			rest = rest[1:]
		}
		if forgets(c.module, rest) {
			return true
		}
	}
	return false
}
