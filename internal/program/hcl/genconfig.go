package hcl

import (
	"fmt"
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
	"github.com/zclconf/go-cty/cty"
)

// GeneratedHeader starts a file written by `--generate-config-out`, as
// Terraform's "# __generated__ by Terraform" does.
const GeneratedHeader = "# __generated__ by Plinth\n# Please review these resources and move them into your main configuration files.\n"

// Imported is one imported resource that has no configuration: its
// Terraform type and name, the import ID, its read attributes and its
// type's schema.
type Imported struct {
	Type, Name, ID string
	Attributes     resource.Object
	Schema         schema.ResourceSchema
}

// GenerateConfig writes a resource block for each imported resource:
// required attributes, and optional ones that are not null; computed-only
// attributes (outputs the program cannot set) are left out; objects and
// lists of objects whose type has known properties become nested blocks;
// secret values are written as null with a comment, as Terraform does.
func GenerateConfig(rs []Imported) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, r := range rs {
		body.AppendNewline()
		body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(fmt.Sprintf("# __generated__ by Plinth from %q\n", r.ID))}})
		blk := body.AppendNewBlock("resource", []string{r.Type, r.Name})
		writeProps(blk.Body(), r.Schema.Inputs, r.Attributes)
	}
	return append([]byte(GeneratedHeader), f.Bytes()...)
}

// writeProps writes the attributes and nested blocks of props found in o,
// attributes first, each group sorted by name.
func writeProps(b *hclwrite.Body, props map[string]schema.Property, o resource.Object) {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var blocks []string
	for _, n := range names {
		p, v := props[n], o[n]
		if n == "id" || (!p.Required && v.SecretElement().IsNull()) {
			continue
		}
		if isBlock(p.Type) {
			blocks = append(blocks, n)
			continue
		}
		if v.IsSecret() {
			b.SetAttributeRaw(n, hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte("null"), SpacesBefore: 1},
				{Type: hclsyntax.TokenComment, Bytes: []byte("# sensitive"), SpacesBefore: 1}})
			continue
		}
		b.SetAttributeValue(n, plainCty(v))
	}
	for _, n := range blocks {
		writeBlocks(b, n, props[n].Type, o[n].SecretElement())
	}
}

// isBlock reports whether a property is written as nested blocks: an
// object, or a list of objects, with known properties.
func isBlock(t schema.Type) bool {
	if t.Kind == schema.TypeArray && t.Elem != nil {
		t = *t.Elem
	}
	return t.Kind == schema.TypeObject && len(t.Properties) > 0
}

func writeBlocks(b *hclwrite.Body, name string, t schema.Type, v resource.Value) {
	if v.Kind() == resource.ObjectKind {
		writeProps(b.AppendNewBlock(name, nil).Body(), t.Properties, v.Object())
		return
	}
	if v.Kind() != resource.ArrayKind || t.Elem == nil {
		return
	}
	for _, e := range v.Array() {
		if e = e.SecretElement(); e.Kind() == resource.ObjectKind {
			writeProps(b.AppendNewBlock(name, nil).Body(), t.Elem.Properties, e.Object())
		}
	}
}

// plainCty is toCty without sensitivity marks (hclwrite cannot write
// marked values; secrets are handled before).
func plainCty(v resource.Value) cty.Value {
	c, _ := toCty(v).UnmarkDeep()
	return c
}

// generateConfig imports the resources of the import blocks whose target
// has no resource block (as read, with no inputs) and writes their
// configuration to the --generate-config-out file.
func (r *run) generateConfig() {
	out := r.opts.GenerateConfigOut
	if out == "" || len(r.c.root.unconfigured) == 0 {
		return
	}
	var gen []Imported
	for _, im := range r.c.root.unconfigured {
		ctx := r.evalCtx(r.rootInst)
		keys, ok := r.expand(ctx, nil, im.forEach, "import")
		if !ok {
			return
		}
		for _, k := range keys {
			g, ok := r.importUnconfigured(im, withInstance(ctx, k.key, k.each))
			if !ok {
				return
			}
			gen = append(gen, g)
		}
	}
	if err := os.WriteFile(out, GenerateConfig(gen), 0o644); err != nil {
		r.fail(r.c.root.unconfigured[0].rng, "Cannot write generated configuration", "Writing %s: %s.", out, err)
	}
}

// importUnconfigured registers one import target with no configuration
// and returns what it read with its type's schema.
func (r *run) importUnconfigured(im *importStmt, ctx *hcl.EvalContext) (Imported, bool) {
	id, name, ok := r.importTarget(im, ctx)
	if !ok {
		return Imported{}, false
	}
	if name != im.to.typ+"."+im.to.name {
		return Imported{}, r.fail(im.rng, "Configuration generation for count and for_each resources not supported",
			"Plinth cannot generate configuration for %s, an instance of a counted or for_each resource; write its resource block by hand.", name)
	}
	token, pkg, err := typeToken(im.to.typ)
	if err != nil {
		return Imported{}, r.fail(im.rng, "Invalid resource type", "%s.", err)
	}
	res, err := engine.RegisterAndWait(r.ctx, r.mon, engine.Registration{Type: token, Name: name, Custom: true, ImportID: id})
	if err != nil {
		return Imported{}, r.fail(im.rng, "Import failed", "Importing %s with ID %q: %s.", name, id, err)
	}
	sch, err := r.mon.Schema(r.ctx, pkg, "")
	if err != nil || sch == nil {
		return Imported{}, r.fail(im.rng, "Cannot generate configuration", "The schema of provider %q is not available to generate configuration for %s: %v.", pkg, name, err)
	}
	return Imported{Type: im.to.typ, Name: im.to.name, ID: id, Attributes: res.Outputs, Schema: sch.Resources[token]}, true
}
