package resource

import (
	"fmt"
	"reflect"
)

// FromGo converts plain Go data (nil, bool, integers, floats, string, slices,
// maps with string keys, Value, *Asset, *Archive) into a Value.
func FromGo(x any) (Value, error) {
	switch x := x.(type) {
	case nil:
		return Null(), nil
	case Value:
		return x, nil
	case *Asset:
		return NewAsset(x), nil
	case *Archive:
		return NewArchive(x), nil
	case Object:
		return NewObject(x), nil
	case bool:
		return NewBool(x), nil
	case string:
		return NewString(x), nil
	}
	return fromReflect(reflect.ValueOf(x))
}

func fromReflect(rv reflect.Value) (Value, error) {
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return NewNumber(float64(rv.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return NewNumber(float64(rv.Uint())), nil
	case reflect.Float32, reflect.Float64:
		return NewNumber(rv.Float()), nil
	case reflect.String:
		return NewString(rv.String()), nil
	case reflect.Bool:
		return NewBool(rv.Bool()), nil
	case reflect.Slice, reflect.Array:
		elems := make([]Value, rv.Len())
		for i := range elems {
			e, err := FromGo(rv.Index(i).Interface())
			if err != nil {
				return Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			elems[i] = e
		}
		return NewArray(elems...), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return Value{}, fmt.Errorf("map keys must be strings, not %s", rv.Type().Key())
		}
		o := make(Object, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			e, err := FromGo(it.Value().Interface())
			if err != nil {
				return Value{}, fmt.Errorf("%s: %w", it.Key().String(), err)
			}
			o[it.Key().String()] = e
		}
		return NewObject(o), nil
	}
	return Value{}, fmt.Errorf("cannot convert %T to a value", rv.Interface())
}

// MustFromGo is FromGo for literals in code and tests; it panics on error.
func MustFromGo(x any) Value {
	v, err := FromGo(x)
	if err != nil {
		panic(err)
	}
	return v
}

// ObjectFromGo converts a map of plain Go data into an Object.
func ObjectFromGo(m map[string]any) Object {
	return MustFromGo(m).Object()
}

// ToGo converts v into plain Go data: nil, bool, float64, string, []any,
// map[string]any. Secrets are unwrapped; assets, archives and references are
// returned as themselves; unknowns as Unknown().
func (v Value) ToGo() any {
	switch v.Kind() {
	case BoolKind:
		return v.Bool()
	case NumberKind:
		return v.Number()
	case StringKind:
		return v.str
	case ArrayKind:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = e.ToGo()
		}
		return out
	case ObjectKind:
		out := make(map[string]any, len(v.Object()))
		for k, e := range v.Object() {
			out[k] = e.ToGo()
		}
		return out
	case AssetKind:
		return v.Asset()
	case ArchiveKind:
		return v.Archive()
	case ReferenceKind:
		return v.Reference()
	case UnknownKind:
		return v
	case SecretKind:
		return v.SecretElement().ToGo()
	}
	return nil
}
