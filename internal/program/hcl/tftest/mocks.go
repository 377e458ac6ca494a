package tftest

import (
	"github.com/hashicorp/hcl/v2"

	tfhcl "github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Mocks are what a run fakes instead of asking the providers: mock
// providers (mock_provider), overridden resources (override_resource),
// data sources (override_data) and module calls (override_module). The
// caller's provider source answers for the mock providers and the
// overridden resources; nothing a mocked resource does reaches its
// provider. Overridden data sources and module calls are the
// configuration's evaluation's (Overrides): they are neither read nor
// evaluated.
type Mocks struct {
	// Providers are the mock providers by provider name (the package),
	// or NAME.ALIAS for an aliased configuration's.
	Providers map[string]MockProvider
	// Resources are the overridden resources, by address.
	Resources map[string]Override
	// Data are the values of overridden data sources, by address.
	Data map[string]resource.Object
	// Modules are the outputs of overridden module calls, by address.
	Modules map[string]resource.Object
}

// Override is what an override_resource block, or a mock_resource's
// defaults, give a faked resource.
type Override struct {
	// Values are the values of its computed attributes; the others are
	// generated.
	Values resource.Object
	// DuringPlan is override_during = plan: the values are known when
	// the run plans, not only once it applies.
	DuringPlan bool
}

// MockProvider is a mock_provider block: every resource and data source
// of the provider is faked, their computed attributes taken from the
// defaults of their type, or generated.
type MockProvider struct {
	Resources map[string]Override // mock_resource defaults, by resource type
	Data      map[string]Override // mock_data defaults, by data source type
	// DuringPlan is the mock provider's override_during = plan: the
	// values of its resources are known when a run plans.
	DuringPlan bool
}

// Empty reports whether nothing is faked by the providers.
func (m Mocks) Empty() bool { return len(m.Providers) == 0 && len(m.Resources) == 0 }

// Overrides are the data sources and module calls the configuration's
// evaluation overrides.
func (m Mocks) Overrides() tfhcl.Overrides { return tfhcl.Overrides{Data: m.Data, Modules: m.Modules} }

// override is an override_resource, override_data or override_module
// block.
type override struct {
	kind       string // the block type
	target     string
	values     hcl.Expression // values (outputs for a module); nil when not given
	duringPlan bool
	rng        hcl.Range
}

var mockProviderSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "mock_resource", LabelNames: []string{"type"}},
		{Type: "mock_data", LabelNames: []string{"type"}},
		{Type: "override_resource"}, {Type: "override_data"},
	},
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "source"}, {Name: "override_during"}},
}

var defaultsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}}}

var overrideSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "target", Required: true}, {Name: "values"}, {Name: "override_during"},
}}

var overrideModuleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "target", Required: true}, {Name: "outputs"},
}}

// decodeMockProvider reads a mock_provider block into the file's mocks,
// under the provider's name, or NAME.ALIAS for a mock of an aliased
// configuration; the override blocks in it join the file's, which win
// over them.
func (f *File) decodeMockProvider(b *hcl.Block) hcl.Diagnostics {
	c, ds := b.Body.Content(mockProviderSchema)
	if a, ok := c.Attributes["source"]; ok {
		ds = append(ds, errorAt(a.NameRange, "Unsupported mock_provider argument",
			"plinth test does not read mock data files (source). Write the mock_resource and mock_data blocks in the mock_provider block, or run this file with terraform test."))
	}
	mp := MockProvider{Resources: map[string]Override{}, Data: map[string]Override{}}
	mp.DuringPlan, ds = decodeDuring(c.Attributes["override_during"], false, ds)
	for _, blk := range c.Blocks {
		if blk.Type == "override_resource" || blk.Type == "override_data" {
			o, more := decodeOverride(blk)
			ds = append(ds, more...)
			if o != nil {
				f.mockOverrides = append(f.mockOverrides, o)
			}
			continue
		}
		ds = append(ds, mp.decodeMock(blk)...)
	}
	if f.mocks.Providers == nil {
		f.mocks.Providers = map[string]MockProvider{}
	}
	key := b.Labels[0]
	if a, ok := c.Attributes["alias"]; ok {
		v, more := a.Expr.Value(nil)
		if more.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type().FriendlyName() != "string" {
			return append(ds, errorAt(a.Expr.Range(), "Invalid mock_provider alias", "The alias of a mock_provider is a string naming an aliased provider configuration, such as \"east\"."))
		}
		key += "." + v.AsString()
	}
	f.mocks.Providers[key] = mp
	return ds
}

// decodeMock reads a mock_resource or mock_data block.
func (mp MockProvider) decodeMock(blk *hcl.Block) hcl.Diagnostics {
	c, ds := blk.Body.Content(defaultsSchema)
	o := Override{Values: resource.Object{}}
	o.DuringPlan, ds = decodeDuring(c.Attributes["override_during"], mp.DuringPlan, ds)
	if a, ok := c.Attributes["defaults"]; ok && !ds.HasErrors() {
		var more hcl.Diagnostics
		o.Values, more = objectValue(a.Expr)
		ds = append(ds, more...)
	}
	into := mp.Resources
	if blk.Type == "mock_data" {
		into = mp.Data
	}
	into[blk.Labels[0]] = o
	return ds
}

// decodeDuring reads override_during = plan | apply, a bare keyword;
// without it, def.
func decodeDuring(a *hcl.Attribute, def bool, ds hcl.Diagnostics) (bool, hcl.Diagnostics) {
	if a == nil {
		return def, ds
	}
	switch hcl.ExprAsKeyword(a.Expr) {
	case "plan":
		return true, ds
	case "apply":
		return false, ds
	}
	return def, append(ds, errorAt(a.Expr.Range(), "Invalid override_during",
		"override_during is the keyword plan or apply: plan makes the values known when a run plans, apply (the default) only once it applies."))
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

// decodeOverride reads an override_resource, override_data or
// override_module block.
func decodeOverride(b *hcl.Block) (*override, hcl.Diagnostics) {
	schema, valuesName := overrideSchema, "values"
	if b.Type == "override_module" {
		schema, valuesName = overrideModuleSchema, "outputs"
	}
	c, ds := b.Body.Content(schema)
	if ds.HasErrors() {
		return nil, ds
	}
	o := &override{kind: b.Type, rng: b.DefRange}
	o.duringPlan, ds = decodeDuring(c.Attributes["override_during"], false, ds)
	target := c.Attributes["target"].Expr
	t, more := hcl.AbsTraversalForExpr(target)
	if more.HasErrors() || !overrideTarget(b.Type, t) {
		return nil, append(ds, errorAt(target.Range(), "Invalid override target", "%s", overrideTargetHelp[b.Type]))
	}
	o.target = tfhcl.ReferenceAddr(t)
	if a, ok := c.Attributes[valuesName]; ok {
		o.values = a.Expr
	}
	return o, ds
}

var overrideTargetHelp = map[string]string{
	"override_resource": "The target of override_resource is a resource of the module under test, such as aws_s3_bucket.logs, aws_s3_bucket.logs[0] or module.site.aws_s3_bucket.logs.",
	"override_data":     "The target of override_data is a data source of the module under test, such as data.aws_ami.base, data.aws_ami.base[\"k\"] or module.site.data.aws_ami.base.",
	"override_module":   "The target of override_module is a module call of the module under test, such as module.site, without an index.",
}

// overrideTarget reports whether t names what an override block of the
// kind overrides: module.NAME steps, then TYPE.NAME or data.TYPE.NAME,
// with or without an instance key, or nothing more (override_module,
// without a key).
func overrideTarget(kind string, t hcl.Traversal) bool {
	var names []string
	keyed := false
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, s.Name)
		case hcl.TraverseAttr:
			names = append(names, s.Name)
		case hcl.TraverseIndex:
			keyed = true
		default:
			return false
		}
	}
	if keyed && (kind == "override_module" || !lastIndexed(t)) {
		return false
	}
	for len(names) >= 2 && names[0] == "module" {
		if kind == "override_module" && len(names) == 2 {
			return true
		}
		names = names[2:]
	}
	switch kind {
	case "override_resource":
		return len(names) == 2 && names[0] != "data" && names[0] != "module"
	case "override_data":
		return len(names) == 3 && names[0] == "data"
	}
	return false
}

// mocksFor are the mocks of a run: the file's mock providers, and the
// overrides of the file's mock providers, of the file and of the run,
// later ones winning.
func (fr *fileRunner) mocksFor(r *Run) (Mocks, hcl.Diagnostics) {
	m := Mocks{Providers: fr.f.mocks.Providers, Resources: map[string]Override{},
		Data: map[string]resource.Object{}, Modules: map[string]resource.Object{}}
	var ds hcl.Diagnostics
	all := append(append(append([]*override(nil), fr.f.mockOverrides...), fr.f.overrides...), r.overrides...)
	for _, o := range all {
		v := resource.Object{}
		if o.values != nil {
			var more hcl.Diagnostics
			v, more = objectValue(o.values)
			ds = append(ds, more...)
		}
		switch o.kind {
		case "override_resource":
			m.Resources[o.target] = Override{Values: v, DuringPlan: o.duringPlan}
		case "override_data":
			m.Data[o.target] = v
		default:
			m.Modules[o.target] = v
		}
	}
	return m, ds
}

// lastIndexed reports whether a traversal's only index is its last
// step: aws_s3_bucket.b[0], not module.a[0].aws_s3_bucket.b.
func lastIndexed(t hcl.Traversal) bool {
	for i, step := range t {
		if _, ok := step.(hcl.TraverseIndex); ok && i != len(t)-1 {
			return false
		}
	}
	return true
}
