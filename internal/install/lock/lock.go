package lock

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// FileName is the lock file's name in a configuration directory.
const FileName = ".terraform.lock.hcl"

// header is the comment Terraform starts the file with.
const header = "# This file is maintained automatically by \"terraform init\".\n" +
	"# Manual edits may be lost in future updates.\n"

// Provider is one provider's entry: the version chosen for it, the
// configuration's constraints when it was chosen, and the hashes a
// package of that version must match one of.
type Provider struct {
	// Address is the provider's full source address
	// ("registry.terraform.io/hashicorp/random").
	Address     string
	Version     string
	Constraints string
	Hashes      []string
}

// File is a lock file's provider entries by address.
type File struct {
	Providers map[string]Provider
}

// Read reads the lock file at path. A missing file is an empty lock.
func Read(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{Providers: map[string]Provider{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the dependency lock file: %w", err)
	}
	return Parse(path, src)
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "provider", LabelNames: []string{"source"}},
	{Type: "module", LabelNames: []string{"path"}},
}}

var providerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "version", Required: true},
	{Name: "constraints"},
	{Name: "hashes"},
}}

// Parse reads a lock file's text; name is for diagnostics.
func Parse(name string, src []byte) (*File, error) {
	f, ds := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if ds.HasErrors() {
		return nil, invalid(ds)
	}
	content, ds := f.Body.Content(fileSchema)
	if ds.HasErrors() {
		return nil, invalid(ds)
	}
	out := &File{Providers: map[string]Provider{}}
	for _, b := range content.Blocks {
		if b.Type != "provider" {
			continue
		}
		p, ds := parseProvider(b)
		if ds.HasErrors() {
			return nil, invalid(ds)
		}
		if _, dup := out.Providers[p.Address]; dup {
			return nil, fmt.Errorf("invalid dependency lock file %s:%d: provider %s is locked twice; delete one of its blocks", name, b.DefRange.Start.Line, p.Address)
		}
		out.Providers[p.Address] = p
	}
	return out, nil
}

// parseProvider reads one provider block.
func parseProvider(b *hcl.Block) (Provider, hcl.Diagnostics) {
	p := Provider{Address: b.Labels[0]}
	content, ds := b.Body.Content(providerSchema)
	if ds.HasErrors() {
		return p, ds
	}
	for name, dst := range map[string]*string{"version": &p.Version, "constraints": &p.Constraints} {
		if a := content.Attributes[name]; a != nil {
			ds = append(ds, stringAttr(a, dst)...)
		}
	}
	if a := content.Attributes["hashes"]; a != nil {
		v, vds := a.Expr.Value(nil)
		ds = append(ds, vds...)
		if !vds.HasErrors() {
			ds = append(ds, stringList(a, v, &p.Hashes)...)
		}
	}
	return p, ds
}

func stringAttr(a *hcl.Attribute, dst *string) hcl.Diagnostics {
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() {
		return ds
	}
	if v.Type() != cty.String || v.IsNull() {
		return attrError(a, "must be a string")
	}
	*dst = v.AsString()
	return nil
}

func stringList(a *hcl.Attribute, v cty.Value, dst *[]string) hcl.Diagnostics {
	if !v.Type().IsTupleType() && !v.Type().IsListType() {
		return attrError(a, "must be a list of strings")
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.Type() != cty.String || e.IsNull() {
			return attrError(a, "must be a list of strings")
		}
		*dst = append(*dst, e.AsString())
	}
	return nil
}

func attrError(a *hcl.Attribute, what string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid provider lock",
		Detail: fmt.Sprintf("The %s argument %s.", a.Name, what), Subject: a.Expr.Range().Ptr()}}
}

func invalid(ds hcl.Diagnostics) error {
	return fmt.Errorf("invalid dependency lock file: %w; fix it, or delete it and run plinth init again", ds)
}

// Bytes is the file as Terraform writes it: the header, then each
// provider sorted by address, hashes sorted, no constraints or hashes
// attribute when there are none.
func (f *File) Bytes() []byte {
	addrs := make([]string, 0, len(f.Providers))
	for a := range f.Providers {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	out := hclwrite.NewEmptyFile()
	body := out.Body()
	for _, a := range addrs {
		body.AppendNewline()
		writeProvider(body.AppendNewBlock("provider", []string{a}).Body(), f.Providers[a])
	}
	return append([]byte(header), hclwrite.Format(out.Bytes())...)
}

// writeProvider fills one provider block; the hashes are one a line.
func writeProvider(b *hclwrite.Body, p Provider) {
	b.SetAttributeValue("version", cty.StringVal(p.Version))
	if p.Constraints != "" {
		b.SetAttributeValue("constraints", cty.StringVal(p.Constraints))
	}
	if len(p.Hashes) == 0 {
		return
	}
	hashes := slices.Clone(p.Hashes)
	sort.Strings(hashes)
	hashes = slices.Compact(hashes)
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range hashes {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(h))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
	b.SetAttributeRaw("hashes", toks)
}

// Write writes the file to path, through a temporary file so that a
// crash never leaves half a lock.
func (f *File) Write(path string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, f.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the dependency lock file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the dependency lock file: %w", err)
	}
	return nil
}

// Has reports whether any of hashes is among the provider's locked ones.
func (p Provider) Has(hashes ...string) bool {
	for _, h := range hashes {
		if slices.Contains(p.Hashes, h) {
			return true
		}
	}
	return false
}
