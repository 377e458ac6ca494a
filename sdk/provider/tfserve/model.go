package tfserve

import (
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// kind is the kind of a value as Terraform sees it.
type kind uint8

const (
	kindDynamic kind = iota
	kindBool
	kindNumber
	kindString
	kindList
	kindMap
	kindObject
	kindAsset
	kindArchive
	kindSet // of scalars or objects: see provider.Property.Set
)

// vtype is how one SDK value is written for Terraform: its kind, its
// element type (lists, maps) or its attributes (objects), with the SDK's
// property names beside Terraform's.
type vtype struct {
	kind  kind
	elem  *vtype
	attrs []*attr // objects: sorted by Terraform name
	byTF  map[string]*attr
}

// attr is one attribute of an object: a resource's, a data source's, the
// provider configuration's or a nested object's.
type attr struct {
	name      string // the SDK's property name
	tf        string // Terraform's attribute name
	t         *vtype
	doc       string
	required  bool
	optional  bool
	computed  bool
	sensitive bool
	input     bool // a property the configuration sets
	output    bool // a property the provider reports
	replace   bool
	writeOnly bool
	wantBlock bool // the SDK asks for a block in protocol 6 too
	variadic  bool // a function's trailing arguments, as a list
	// deprecated says why the attribute should no longer be set; empty
	// when it may be.
	deprecated string
	// block: protocol 5 writes this nested object (or list or map of
	// them) as a nested block, so an absent one is an empty collection.
	block bool
	// id marks the "id" attribute tfserve adds to every resource.
	id bool
}

func (a *attr) computedOnly() bool { return a.computed && !a.optional && !a.required }

// tftype is the Terraform type of values of t.
func (t *vtype) tftype() tftypes.Type {
	switch t.kind {
	case kindBool:
		return tftypes.Bool
	case kindNumber:
		return tftypes.Number
	case kindString, kindAsset, kindArchive:
		return tftypes.String
	case kindList:
		return tftypes.List{ElementType: t.elem.tftype()}
	case kindMap:
		return tftypes.Map{ElementType: t.elem.tftype()}
	case kindSet:
		return tftypes.Set{ElementType: t.elem.tftype()}
	case kindObject:
		types := make(map[string]tftypes.Type, len(t.attrs))
		for _, a := range t.attrs {
			types[a.tf] = a.t.tftype()
		}
		return tftypes.Object{AttributeTypes: types}
	}
	return tftypes.DynamicPseudoType
}

// typeOf derives the vtype of an SDK property type. depth guards against
// a malformed schema whose object types contain themselves.
func typeOf(t provider.Type, blocks bool, depth int) *vtype {
	switch t.Kind {
	case provider.TypeBool:
		return &vtype{kind: kindBool}
	case provider.TypeInteger, provider.TypeNumber:
		return &vtype{kind: kindNumber}
	case provider.TypeString:
		return &vtype{kind: kindString}
	case provider.TypeAsset:
		return &vtype{kind: kindAsset}
	case provider.TypeArchive:
		return &vtype{kind: kindArchive}
	case provider.TypeArray, provider.TypeMap:
		k := kindList
		if t.Kind == provider.TypeMap {
			k = kindMap
		}
		if t.Elem == nil {
			return &vtype{kind: k, elem: &vtype{kind: kindDynamic}}
		}
		return &vtype{kind: k, elem: typeOf(*t.Elem, blocks, depth+1)}
	case provider.TypeObject:
		if len(t.Properties) == 0 || depth > 32 {
			return &vtype{kind: kindDynamic}
		}
		return objectOf(t.Properties, nil, blocks, depth+1)
	}
	return &vtype{kind: kindDynamic}
}

// objectOf builds an object type from input and output properties (a
// resource has both; nested objects, configuration and arguments have
// inputs only).
func objectOf(inputs, outputs map[string]provider.Property, blocks bool, depth int) *vtype {
	t := &vtype{kind: kindObject, byTF: map[string]*attr{}}
	add := func(name string) *attr {
		tf := snake(name)
		if a, ok := t.byTF[tf]; ok {
			return a
		}
		a := &attr{name: name, tf: tf}
		t.byTF[tf] = a
		t.attrs = append(t.attrs, a)
		return a
	}
	for name, p := range inputs {
		a := add(name)
		a.input, a.t, a.doc = true, typeOf(p.Type, blocks, depth), p.Description
		a.required = p.Required && p.Default.IsNull() && !p.Computed
		a.optional = !a.required
		a.computed = !p.Default.IsNull() || p.Computed
		a.sensitive, a.replace = p.Secret, p.ReplaceOnChanges
		a.writeOnly, a.deprecated, a.variadic, a.wantBlock = p.WriteOnly, p.Deprecated, p.Variadic, p.Block
		if p.Set && a.t.kind == kindList {
			a.t = &vtype{kind: kindSet, elem: a.t.elem}
		}
		if a.writeOnly {
			a.computed, a.sensitive = false, true
		}
	}
	for name, p := range outputs {
		a := add(name)
		if a.writeOnly {
			continue // never an output, see provider.Property.WriteOnly
		}
		a.output, a.sensitive = true, a.sensitive || p.Secret
		if !a.input {
			a.t, a.doc, a.computed = typeOf(p.Type, blocks, depth), p.Description, true
		}
	}
	sort.Slice(t.attrs, func(i, j int) bool { return t.attrs[i].tf < t.attrs[j].tf })
	for _, a := range t.attrs {
		if a.computedOnly() {
			a.t.allComputed()
		}
		a.block = (blocks || a.wantBlock) && a.input && !a.computedOnly() && a.t.nestedObject() != nil
		if obj := a.t.nestedObject(); obj != nil && !a.block {
			obj.noBlocks()
		}
	}
	return t
}

// noBlocks makes the attributes nested in t attributes: inside a nested
// attribute, protocol 6 has no blocks.
func (t *vtype) noBlocks() {
	for _, a := range t.attrs {
		a.block = false
		if obj := a.t.nestedObject(); obj != nil {
			obj.noBlocks()
		}
	}
}

// description is the attribute's description, with why it is deprecated.
func (a *attr) description() string {
	if a.deprecated == "" {
		return a.doc
	}
	if a.doc == "" {
		return "Deprecated: " + a.deprecated
	}
	return a.doc + "\n\nDeprecated: " + a.deprecated
}

// allComputed makes every attribute nested in t computed only: the
// provider sets the whole value.
func (t *vtype) allComputed() {
	if t.elem != nil {
		t.elem.allComputed()
	}
	for _, a := range t.attrs {
		a.required, a.optional, a.computed, a.block = false, false, true, false
		a.t.allComputed()
	}
}

// nestedObject returns the object type of a nested object, a list of
// objects or a map of objects: what protocol 6 writes as a nested
// attribute and protocol 5 as a nested block.
func (t *vtype) nestedObject() *vtype {
	switch {
	case t.kind == kindObject:
		return t
	case (t.kind == kindList || t.kind == kindMap || t.kind == kindSet) && t.elem.kind == kindObject:
		return t.elem
	}
	return nil
}

// resourceModel is one resource type as Terraform sees it.
type resourceModel struct {
	token   string
	name    string
	doc     string
	version int64
	obj     *vtype
}

// functionModel is one SDK function: a provider-defined function and a
// data source.
type functionModel struct {
	token  string
	name   string // the function's name
	data   string // the data source's type name
	doc    string
	args   *vtype
	result *vtype
	// data source attributes: the arguments, then the result's.
	dataObj *vtype
}

// model is a provider's schema in Terraform's terms, for one protocol.
type model struct {
	name      string
	config    *vtype
	resources map[string]*resourceModel // by Terraform type name
	functions map[string]*functionModel // by function name
	data      map[string]*functionModel // by data source type name
	// ephemerals are by Terraform type name (see ephemeral.go).
	ephemerals map[string]*ephemeralModel
}

// newModel translates an SDK schema. blocks selects protocol 5's nested
// blocks over protocol 6's nested attributes.
func newModel(s provider.Schema, blocks bool) (*model, error) {
	m := &model{name: s.Name, config: objectOf(s.Config, nil, blocks, 0),
		resources: map[string]*resourceModel{}, functions: map[string]*functionModel{}, data: map[string]*functionModel{}}
	for _, tok := range s.ResourceTypes() {
		rs := s.Resources[tok]
		if rs.IsComponent {
			continue // Terraform has no component resources
		}
		r := &resourceModel{token: tok, name: typeName(tok), doc: rs.Description, version: rs.Version,
			obj: objectOf(rs.Inputs, rs.Outputs, blocks, 0)}
		if _, clash := r.obj.byTF["id"]; clash {
			return nil, fmt.Errorf("resource %s has a property named id (or Id); Terraform reserves it for the resource's ID: rename the property", tok)
		}
		r.obj.addID()
		if other, dup := m.resources[r.name]; dup {
			return nil, fmt.Errorf("resource types %s and %s would both be named %s in Terraform; rename one", other.token, tok, r.name)
		}
		m.resources[r.name] = r
	}
	for _, tok := range s.FunctionTokens() {
		fs := s.Functions[tok]
		f := &functionModel{token: tok, name: functionName(tok), data: typeName(tok), doc: fs.Description,
			args: objectOf(fs.Inputs, nil, blocks, 0), result: objectOf(fs.Outputs, nil, false, 0),
			dataObj: objectOf(fs.Inputs, fs.Outputs, blocks, 0)}
		f.result.allComputed()
		m.functions[f.name], m.data[f.data] = f, f
	}
	return m, nil
}

// addID adds the computed "id" attribute holding the resource's ID.
func (t *vtype) addID() {
	a := &attr{name: "id", tf: "id", t: &vtype{kind: kindString}, computed: true, id: true,
		doc: "The resource's ID."}
	t.byTF["id"] = a
	t.attrs = append(t.attrs, a)
	sort.Slice(t.attrs, func(i, j int) bool { return t.attrs[i].tf < t.attrs[j].tf })
}
