package resource

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// FromJSONData converts what encoding/json decodes with UseNumber (nil,
// bool, json.Number, string, []any, map[string]any) into a Value. number
// reads each number literal, so the caller chooses how numbers are kept.
func FromJSONData(g any, number func(literal string) (Value, error)) (Value, error) {
	switch x := g.(type) {
	case nil:
		return Null(), nil
	case bool:
		return NewBool(x), nil
	case json.Number:
		return number(string(x))
	case string:
		return NewString(x), nil
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			v, err := FromJSONData(e, number)
			if err != nil {
				return Value{}, err
			}
			out[i] = v
		}
		return NewArray(out...), nil
	case map[string]any:
		o := make(Object, len(x))
		for k, e := range x {
			v, err := FromJSONData(e, number)
			if err != nil {
				return Value{}, err
			}
			o[k] = v
		}
		return NewObject(o), nil
	}
	return Value{}, fmt.Errorf("unexpected JSON value %T", g)
}

// ToJSONData converts v into what encoding/json writes, secrets unwrapped.
// Numbers become json.Number with every digit, integers without an exponent
// (1000000, not 1e+06). reject gives the error for what JSON cannot hold: a
// number that is NaN or infinite, or a value that is not null, bool,
// number, string, array or object; path is where it is.
func ToJSONData(v Value, path PropertyPath, reject func(v Value, path PropertyPath) error) (any, error) {
	v = v.SecretElement()
	switch v.Kind() {
	case NullKind:
		return nil, nil
	case BoolKind:
		return v.Bool(), nil
	case NumberKind:
		if f := v.Number(); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, reject(v, path)
		}
		return json.Number(jsonNumber(v)), nil
	case StringKind:
		return v.Str(), nil
	case ArrayKind:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			g, err := ToJSONData(e, append(path, i), reject)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case ObjectKind:
		out := make(map[string]any, len(v.Object()))
		for k, e := range v.Object() {
			g, err := ToJSONData(e, append(path, k), reject)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return nil, reject(v, path)
}

// jsonNumber writes a finite number with every digit, an integer without
// an exponent. A double that holds an integer exactly (below 2^53, not
// -0) is written by strconv: the same digits as the decimal expansion
// through math/big, at a fraction of the cost (state JSON of every
// resource in a plan goes through here).
func jsonNumber(v Value) string {
	if f := v.Number(); v.str == "" && f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	if bf := v.BigNumber(); bf.IsInt() {
		return bf.Text('f', -1)
	}
	return v.NumberLiteral()
}
