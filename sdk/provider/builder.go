package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

var (
	valueType   = reflect.TypeFor[resource.Value]()
	assetType   = reflect.TypeFor[*resource.Asset]()
	archiveType = reflect.TypeFor[*resource.Archive]()
)

// typeBuilder derives codecs and schema types from Go types for one
// provider package. Nested struct types become named object types,
// pkg:module:GoName, collected in types.
type typeBuilder struct {
	pkg        string
	structs    map[reflect.Type]*structCodec
	types      map[string]ObjectType
	tokens     map[string]reflect.Type
	inProgress map[reflect.Type]bool
}

func newTypeBuilder(pkg string) *typeBuilder {
	return &typeBuilder{
		pkg:        pkg,
		structs:    map[reflect.Type]*structCodec{},
		types:      map[string]ObjectType{},
		tokens:     map[string]reflect.Type{},
		inProgress: map[reflect.Type]bool{},
	}
}

// object builds the codec of a top-level struct: a resource's inputs or
// outputs, a function's arguments or result, or the configuration. Types
// nested in it are named in module. A field that cannot be described is a
// *DeclarationError naming t and the path to the field.
func (b *typeBuilder) object(t reflect.Type, module string) (*structCodec, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s is a %s; it must be a struct", t, t.Kind())
	}
	b.inProgress[t] = true
	defer delete(b.inProgress, t)
	sc := newStructCodec(t, "")
	err := b.addFields(sc, t, nil, module)
	if err == nil {
		err = sc.checkSiblings()
	}
	if err != nil {
		var de *DeclarationError
		if errors.As(err, &de) {
			de.Type = t.String()
			if de.Owner == de.Type {
				de.Owner = ""
			}
		}
		return nil, err
	}
	return sc, nil
}

// declError makes the error of field sf of the struct owner.
func declError(owner reflect.Type, sf reflect.StructField, format string, args ...any) *DeclarationError {
	return &DeclarationError{Owner: owner.String(), Field: sf.Name, Reason: fmt.Sprintf(format, args...)}
}

// addFields adds t's fields to sc; an embedded struct without a property
// name contributes its own fields, so an outputs struct can embed its
// inputs.
func (b *typeBuilder) addFields(sc *structCodec, t reflect.Type, index []int, module string) error {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, skip, err := parseTag(sf)
		if err != nil {
			return declError(t, sf, "%v", err)
		}
		if skip {
			continue
		}
		idx := append(index[:len(index):len(index)], i)
		if sf.Anonymous && tag.name == "" {
			if sf.Type.Kind() != reflect.Struct {
				return declError(t, sf, "an embedded %s cannot be flattened, only a struct (not a pointer) can; "+
					"name it with a plinth tag, embed the struct itself, or tag it `plinth:\"-\"`", sf.Type)
			}
			if err := b.addFields(sc, sf.Type, idx, module); err != nil {
				return err
			}
			continue
		}
		if err := b.addField(sc, t, sf, tag, idx, module); err != nil {
			return err
		}
	}
	return nil
}

func (b *typeBuilder) addField(sc *structCodec, owner reflect.Type, sf reflect.StructField, tag fieldTag, idx []int, module string) error {
	decl := owner.String() + "." + sf.Name
	if other, dup := sc.byName[tag.name]; dup {
		return declError(owner, sf, "property %q is already the name of field %s; give one of them another "+
			"name with a plinth tag, or leave one out with `plinth:\"-\"`", tag.name, other.decl)
	}
	c, err := b.codec(sf.Type, module)
	if err != nil {
		var de *DeclarationError
		if errors.As(err, &de) {
			de.Field = fieldPath(sf.Name, de.Field)
			return de
		}
		return declError(owner, sf, "%v", err)
	}
	f := &field{index: idx, tag: tag, codec: c, decl: decl, goName: sf.Name}
	if tag.validate != "" {
		if f.rules, err = parseRules(tag.validate, c); err != nil {
			return declError(owner, sf, "%v", err)
		}
	}
	if err := tag.checkWriteOnly(c); err != nil {
		return declError(owner, sf, "%v", err)
	}
	if tag.hasDefault {
		if f.def, err = parseDefault(tag.def, c); err != nil {
			return declError(owner, sf, "default:%q does not fit the field's type %s: %v; %s",
				tag.def, sf.Type, err, defaultHint(c))
		}
	}
	sc.add(f)
	return nil
}

// fieldPath joins a field name and the path inside it: "Spec" and "Color"
// make "Spec.Color", "Rules" and "[].Port" make "Rules[].Port".
func fieldPath(name, rest string) string {
	if strings.HasPrefix(rest, "[") {
		return name + rest
	}
	return name + "." + rest
}

// codec returns the codec of a property's Go type.
func (b *typeBuilder) codec(t reflect.Type, module string) (codec, error) {
	switch t {
	case valueType:
		return valueCodec{}, nil
	case assetType:
		return assetCodec(), nil
	case archiveType:
		return archiveCodec(), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return boolCodec{}, nil
	case reflect.String:
		return stringCodec{}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return intCodec{t: t}, nil
	case reflect.Float32, reflect.Float64:
		return floatCodec{}, nil
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return anyCodec{}, nil
		}
	case reflect.Pointer:
		return b.elemCodec(t, module, "", func(e codec) codec { return ptrCodec{elem: e} })
	case reflect.Slice:
		return b.elemCodec(t, module, "[]", func(e codec) codec { return sliceCodec{elem: e} })
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys must be strings, not %s; use map[string]%s", t.Key(), t.Elem())
		}
		return b.elemCodec(t, module, "[]", func(e codec) codec { return mapCodec{elem: e} })
	case reflect.Struct:
		return b.named(t, module)
	}
	return nil, fmt.Errorf("type %s is not supported (use bool, integers, floats, string, slices, maps with string keys, "+
		"structs, pointers, *resource.Asset, *resource.Archive or resource.Value); change the field's type, "+
		"or tag it `plinth:\"-\"` if it is not a property", t)
}

// elemCodec builds the codec of a pointer, slice or map from that of its
// element; step ("[]" for a slice or map element) is added to the path of
// a DeclarationError inside the element.
func (b *typeBuilder) elemCodec(t reflect.Type, module, step string, wrap func(codec) codec) (codec, error) {
	e, err := b.codec(t.Elem(), module)
	if err != nil {
		var de *DeclarationError
		if step != "" && errors.As(err, &de) {
			de.Field = step + "." + de.Field
		}
		return nil, err
	}
	return wrap(e), nil
}

// named returns the codec of a nested struct type, registering it as an
// object type the first time it is seen.
func (b *typeBuilder) named(t reflect.Type, module string) (codec, error) {
	if sc, ok := b.structs[t]; ok {
		return sc, nil
	}
	if b.inProgress[t] {
		return nil, fmt.Errorf("type %s refers to itself; recursive types are not supported", t)
	}
	if t.Name() == "" {
		return nil, fmt.Errorf("anonymous struct types are not supported; declare a named type")
	}
	token := b.pkg + ":" + module + ":" + t.Name()
	if other, ok := b.tokens[token]; ok {
		return nil, fmt.Errorf("types %s and %s would both be named %s; rename one", other, t, token)
	}
	b.inProgress[t] = true
	defer delete(b.inProgress, t)
	sc := newStructCodec(t, token)
	if err := b.addFields(sc, t, nil, module); err != nil {
		return nil, err
	}
	if err := sc.checkSiblings(); err != nil {
		return nil, err
	}
	for _, f := range sc.fields {
		if f.tag.writeOnly {
			return nil, &DeclarationError{Owner: t.String(), Field: f.goName, Reason: "writeOnly applies to " +
				"top-level properties of a resource's inputs, not to fields of nested objects; move the field up"}
		}
	}
	b.structs[t], b.tokens[token] = sc, t
	b.types[token] = ObjectType{Properties: sc.properties()}
	return sc, nil
}

// parseDefault reads a `default` tag: the literal text for strings, Go
// syntax for booleans and numbers, JSON for anything else.
func parseDefault(text string, c codec) (resource.Value, error) {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	var v resource.Value
	var err error
	switch c.(type) {
	case stringCodec:
		v = resource.NewString(text)
	case boolCodec:
		v, err = parseBool(text)
	case intCodec, floatCodec:
		v, err = resource.ParseNumber(text)
	default:
		v, err = parseJSONValue(text)
	}
	if err != nil {
		return resource.Value{}, err
	}
	var fs []CheckFailure
	checkValue(c, v, nil, &fs)
	if len(fs) > 0 {
		return resource.Value{}, fmt.Errorf("%s", fs[0].Reason)
	}
	return v, nil
}

// defaultHint says how to write a default for a field of codec c.
func defaultHint(c codec) string {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	switch c.(type) {
	case boolCodec:
		return `write default:"true" or default:"false"`
	case intCodec:
		return `write a whole number in the type's range, such as default:"3"`
	case floatCodec:
		return `write a number, such as default:"1.5"`
	}
	return "write the value as JSON of the field's type, such as default:\"[1, 2]\" for a slice of integers"
}

func parseBool(text string) (resource.Value, error) {
	switch strings.ToLower(text) {
	case "true":
		return resource.NewBool(true), nil
	case "false":
		return resource.NewBool(false), nil
	}
	return resource.Value{}, fmt.Errorf("%q is not a boolean", text)
}

func parseJSONValue(text string) (resource.Value, error) {
	var x any
	if err := json.Unmarshal([]byte(text), &x); err != nil {
		return resource.Value{}, fmt.Errorf("not valid JSON: %w", err)
	}
	return resource.FromGo(x)
}
