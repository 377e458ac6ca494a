package hcl

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
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
