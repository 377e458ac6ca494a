package provider

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// field is one property of a struct: where it lives in the Go value (index
// runs through embedded structs), its tags, its codec and its default.
type field struct {
	index []int
	tag   fieldTag
	codec codec
	def   resource.Value
	// decl names the Go field, such as "main.PetArgs.Name"; goName is
	// the field's own name.
	decl   string
	goName string
	// rules are the field's validate tag; nil when it has none.
	rules *rules
	// top is the field's path in a top-level object, made once.
	top resource.PropertyPath
	// nested: the field's type holds a struct, whose defaults and sets
	// objectWithDefaults fills in and sorts.
	nested bool
}

func (f *field) name() string { return f.tag.name }

// structCodec converts a Go struct to and from an object. A nested struct
// has a token naming it in the schema's types; the top-level structs of
// resources, functions and configuration have none.
type structCodec struct {
	t      reflect.Type
	token  string
	fields []*field
	byName map[string]*field
	// sorted holds the property names in sorted order, kept as fields
	// are added so that no call sorts them.
	sorted []string
}

func newStructCodec(t reflect.Type, token string) *structCodec {
	return &structCodec{t: t, token: token, byName: map[string]*field{}}
}

// names returns the property names in sorted order. The slice is
// shared: callers must not modify it.
func (c *structCodec) names() []string { return c.sorted }

// add adds a property.
func (c *structCodec) add(f *field) {
	c.fields = append(c.fields, f)
	c.byName[f.name()] = f
	i, _ := slices.BinarySearch(c.sorted, f.name())
	c.sorted = slices.Insert(c.sorted, i, f.name())
	f.top = resource.PropertyPath{f.name()}
	f.nested = hasStruct(f.codec)
}

func (c *structCodec) has(name string) bool {
	_, ok := c.byName[name]
	return ok
}

func (c *structCodec) properties() map[string]Property {
	props := make(map[string]Property, len(c.fields))
	for _, f := range c.fields {
		props[f.name()] = Property{
			Type:             f.codec.schemaType(),
			Description:      f.tag.doc,
			Required:         f.tag.required(),
			Secret:           f.tag.secret,
			ReplaceOnChanges: f.tag.replaceOnChanges,
			Computed:         f.tag.computed,
			Default:          f.def,
			Deprecated:       f.tag.deprecated,
			WriteOnly:        f.tag.writeOnly,
			Stable:           f.tag.stable,
			Variadic:         f.tag.variadic,
			Set:              f.tag.set,
			Block:            f.tag.block || isTimeouts(c.t.FieldByIndex(f.index).Type),
		}
	}
	return props
}

func (c *structCodec) schemaType() Type {
	return Type{Kind: TypeObject, Token: c.token, Properties: c.properties()}
}

func (c *structCodec) check(v resource.Value, p resource.PropertyPath, fs *[]CheckFailure) {
	if v.Kind() != resource.ObjectKind {
		mismatch(fs, p, "an object", v)
		return
	}
	c.checkObject(v.Object(), p, fs)
}

// checkObject reports unknown properties, missing required ones and type
// mismatches, each with its path.
func (c *structCodec) checkObject(o resource.Object, p resource.PropertyPath, fs *[]CheckFailure) {
	if c.hasUnknownKey(o) {
		for _, k := range o.Keys() {
			if !c.has(k) {
				*fs = append(*fs, CheckFailure{Property: join(p, k).String(), Reason: c.unknownReason(k)})
			}
		}
	}
	for _, f := range c.fields {
		v, ok := o[f.name()]
		if !ok || v.SecretElement().IsNull() {
			if f.tag.required() {
				*fs = append(*fs, CheckFailure{Property: f.pathIn(p).String(),
					Reason: fmt.Sprintf("missing required property %q", f.name())})
			}
			continue
		}
		fp := f.pathIn(p)
		n := len(*fs)
		checkValue(f.codec, v, fp, fs)
		if len(*fs) == n && f.rules != nil {
			f.rules.apply(v, fp, o, fs)
		}
		if len(*fs) == n && f.tag.set {
			checkDistinct(v, fp, fs)
		}
	}
}

// hasUnknownKey reports whether o has a property c does not, without
// sorting o's keys as reporting them in order does.
func (c *structCodec) hasUnknownKey(o resource.Object) bool {
	for k := range o {
		if !c.has(k) {
			return true
		}
	}
	return false
}

// pathIn returns the field's path in an object at p; a top-level field's
// path is made once, when the type is built. Callers extend a path with
// join, which copies it, so sharing it is safe.
func (f *field) pathIn(p resource.PropertyPath) resource.PropertyPath {
	if len(p) == 0 {
		return f.top
	}
	return join(p, f.name())
}

func (c *structCodec) unknownReason(k string) string {
	if n := nearest(k, c.names()); n != "" {
		return fmt.Sprintf("unknown property %q; did you mean %q?", k, n)
	}
	if len(c.fields) == 0 {
		return fmt.Sprintf("unknown property %q: this type takes no properties", k)
	}
	return fmt.Sprintf("unknown property %q; the properties are %s", k, strings.Join(c.names(), ", "))
}

func (c *structCodec) decode(v resource.Value, rv reflect.Value) error {
	if v.Kind() != resource.ObjectKind {
		return kindError("an object", v)
	}
	return c.decodeObject(v.Object(), rv)
}

// decodeObject stores o's properties into the struct rv. Properties the
// struct does not have are ignored, so that state written by an older
// version of a provider still loads.
func (c *structCodec) decodeObject(o resource.Object, rv reflect.Value) error {
	for _, f := range c.fields {
		v, ok := o[f.name()]
		if !ok {
			continue
		}
		if err := decodeValue(f.codec, v, rv.FieldByIndex(f.index)); err != nil {
			return prependPath(f.name(), err)
		}
	}
	return nil
}

func (c *structCodec) encode(rv reflect.Value) (resource.Value, error) {
	o, err := c.encodeObject(rv)
	if err != nil {
		return resource.Value{}, err
	}
	return resource.NewObject(o), nil
}

// encodeObject converts the struct rv. An optional property without a
// default is left out when its Go value is zero; a secret one is marked.
func (c *structCodec) encodeObject(rv reflect.Value) (resource.Object, error) {
	o := make(resource.Object, len(c.fields))
	for _, f := range c.fields {
		fv := rv.FieldByIndex(f.index)
		if f.tag.optional && !f.tag.hasDefault && fv.IsZero() {
			continue
		}
		v, err := f.codec.encode(fv)
		if err != nil {
			return nil, prependPath(f.name(), err)
		}
		if v.IsNull() {
			continue
		}
		if f.tag.secret {
			v = resource.MakeSecret(v)
		}
		o[f.name()] = v
	}
	return o, nil
}

func (c *structCodec) withDefaults(v resource.Value) resource.Value {
	if v.Kind() != resource.ObjectKind {
		return v
	}
	return resource.NewObject(c.objectWithDefaults(v.Object()))
}

// objectWithDefaults returns o with each missing or null property that has
// a default set to it, at every level.
func (c *structCodec) objectWithDefaults(o resource.Object) resource.Object {
	out := o.Copy()
	if out == nil {
		out = resource.Object{}
	}
	for _, f := range c.fields {
		v, ok := o[f.name()]
		switch {
		case (!ok || v.IsNull()) && !f.def.IsNull():
			out[f.name()] = f.def
		case ok && f.tag.set:
			out[f.name()] = sortedSet(defaultsOf(f.codec, v))
		case ok && f.nested:
			out[f.name()] = defaultsOf(f.codec, v)
		}
		// Otherwise out holds v already: without a nested object,
		// defaultsOf would only rebuild an equal value.
	}
	return out
}

// paths returns the paths of every property, at any depth, whose tag
// satisfies pred; arrays and maps contribute a wildcard.
func (c *structCodec) paths(prefix resource.PropertyPath, pred func(fieldTag) bool) []resource.PropertyPath {
	var out []resource.PropertyPath
	for _, f := range c.fields {
		p := join(prefix, f.name())
		if pred(f.tag) {
			out = append(out, p)
		}
		out = append(out, nestedPaths(f.codec, p, pred)...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func nestedPaths(c codec, p resource.PropertyPath, pred func(fieldTag) bool) []resource.PropertyPath {
	switch c := c.(type) {
	case ptrCodec:
		return nestedPaths(c.elem, p, pred)
	case sliceCodec:
		return nestedPaths(c.elem, join(p, resource.Wildcard{}), pred)
	case mapCodec:
		return nestedPaths(c.elem, join(p, resource.Wildcard{}), pred)
	case *structCodec:
		return c.paths(p, pred)
	}
	return nil
}

// join returns p extended by e without sharing p's backing array.
func join(p resource.PropertyPath, e any) resource.PropertyPath {
	return append(p[:len(p):len(p)], e)
}

// pathError is a conversion error at a property path.
type pathError struct {
	path   resource.PropertyPath
	reason error
}

func (e *pathError) Error() string { return "property " + e.path.String() + ": " + e.reason.Error() }
func (e *pathError) Unwrap() error { return e.reason }

func prependPath(elem any, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		return &pathError{path: append(resource.PropertyPath{elem}, pe.path...), reason: pe.reason}
	}
	return &pathError{path: resource.PropertyPath{elem}, reason: err}
}
