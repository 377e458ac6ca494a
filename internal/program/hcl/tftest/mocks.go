package tftest

import (
	"github.com/hashicorp/hcl/v2"

	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Mocks are what a run fakes instead of asking the providers: mock
// providers (mock_provider) and overridden resources (override_resource).
// The caller's provider source answers for them; nothing a mocked
// resource does reaches its provider.
type Mocks struct {
	// Providers are the mock providers by provider name (the package).
	Providers map[string]MockProvider
	// Resources are the values of overridden resources, by address.
	Resources map[string]resource.Object
}

// MockProvider is a mock_provider block: every resource and data source
// of the provider is faked, their computed attributes taken from the
// defaults of their type, or generated.
type MockProvider struct {
	Resources map[string]resource.Object // mock_resource defaults, by resource type
	Data      map[string]resource.Object // mock_data defaults, by data source type
}

// Empty reports whether nothing is mocked.
func (m Mocks) Empty() bool { return len(m.Providers) == 0 && len(m.Resources) == 0 }

// override is an override_resource block.
type override struct {
	target string
	values hcl.Expression // nil when not given
	rng    hcl.Range
}

var mockProviderSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "mock_resource", LabelNames: []string{"type"}},
		{Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"},
	},
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}},
}

var defaultsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}}

var overrideSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "target", Required: true}, {Name: "values"}, {Name: "override_during"},
}}

// decodeMockProvider reads a mock_provider block into the file's mocks.
func (f *File) decodeMockProvider(b *hcl.Block) hcl.Diagnostics {
	c, ds := b.Body.Content(mockProviderSchema)
	for _, name := range []string{"alias", "source"} {
		if a, ok := c.Attributes[name]; ok {
			ds = append(ds, errorAt(a.NameRange, "Unsupported mock_provider argument",
				"plinth test mocks a provider by its name only, without %s. Remove it, or run this file with terraform test.", name))
		}
	}
	mp := MockProvider{Resources: map[string]resource.Object{}, Data: map[string]resource.Object{}}
	for _, blk := range c.Blocks {
		if blk.Type == "override_resource" || blk.Type == "override_data" {
			ds = append(ds, errorAt(blk.DefRange, "Unsupported block in a mock_provider block",
				"plinth test takes %s at the top of a test file or in a run block, not inside mock_provider. Move it out.", blk.Type))
			continue
		}
		v, more := decodeValues(blk.Body, defaultsSchema, "defaults")
		ds = append(ds, more...)
		into := mp.Resources
		if blk.Type == "mock_data" {
			into = mp.Data
		}
		into[blk.Labels[0]] = v
	}
	if f.mocks.Providers == nil {
		f.mocks.Providers = map[string]MockProvider{}
	}
	f.mocks.Providers[b.Labels[0]] = mp
	return ds
}

// decodeValues evaluates a block's object attribute (defaults, values),
// which may refer to nothing.
func decodeValues(body hcl.Body, schema *hcl.BodySchema, name string) (resource.Object, hcl.Diagnostics) {
	c, ds := body.Content(schema)
	a, ok := c.Attributes[name]
	if ds.HasErrors() || !ok {
		return resource.Object{}, ds
	}
	return objectValue(a.Expr)
}

// objectValue evaluates a constant object expression.
func objectValue(e hcl.Expression) (resource.Object, hcl.Diagnostics) {
	v, ds := e.Value(nil)
	if ds.HasErrors() {
		return resource.Object{}, ds
	}
	if v.IsNull() || !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return resource.Object{}, hcl.Diagnostics{errorAt(e.Range(), "Invalid mock values",
			"Mock and override values are an object of attribute values, such as { id = \"fake\" }.")}
	}
	out := resource.Object{}
	for k, x := range v.AsValueMap() {
		out[k] = tfhcl.ValueOf(x)
	}
	return out, nil
}

// decodeOverride reads an override_resource block; override_data is
// refused, as a data source's read does not say which block it is for.
func decodeOverride(b *hcl.Block) (*override, hcl.Diagnostics) {
	if b.Type != "override_resource" {
		return nil, hcl.Diagnostics{errorAt(b.DefRange, "Unsupported block in a test file",
			"plinth test does not run %s blocks yet; override_resource and mock_provider are supported. Remove the block, or run this file with terraform test.", b.Type)}
	}
	c, ds := b.Body.Content(overrideSchema)
	if ds.HasErrors() {
		return nil, ds
	}
	if a, ok := c.Attributes["override_during"]; ok {
		return nil, hcl.Diagnostics{errorAt(a.NameRange, "Unsupported override argument",
			"plinth test applies overrides when a run applies; override_during is not supported. Remove it, or run this file with terraform test.")}
	}
	t, more := hcl.AbsTraversalForExpr(c.Attributes["target"].Expr)
	if more.HasErrors() || len(t) != 2 {
		return nil, hcl.Diagnostics{errorAt(c.Attributes["target"].Expr.Range(), "Invalid override target",
			"The target of override_resource is a resource of the module under test, such as aws_s3_bucket.logs, without an index.")}
	}
	o := &override{target: traversalAddr(t), rng: b.DefRange}
	if a, ok := c.Attributes["values"]; ok {
		o.values = a.Expr
	}
	return o, nil
}

// mocksFor are the mocks of a run: the file's mock providers, and the
// file's overrides with the run's on top.
func (fr *fileRunner) mocksFor(r *Run) (Mocks, hcl.Diagnostics) {
	m := Mocks{Providers: fr.f.mocks.Providers, Resources: map[string]resource.Object{}}
	var ds hcl.Diagnostics
	for _, o := range append(append([]*override(nil), fr.f.overrides...), r.overrides...) {
		v := resource.Object{}
		if o.values != nil {
			var more hcl.Diagnostics
			v, more = objectValue(o.values)
			ds = append(ds, more...)
		}
		m.Resources[o.target] = v
	}
	return m, ds
}
