package yaml

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// jsonData converts a value (without unknowns or secrets) to data that
// encoding/json writes, keeping every digit of numbers.
func jsonData(v resource.Value) (any, error) {
	switch v.Kind() {
	case resource.NullKind:
		return nil, nil
	case resource.BoolKind:
		return v.Bool(), nil
	case resource.NumberKind:
		return json.Number(v.NumberLiteral()), nil
	case resource.StringKind:
		return v.Str(), nil
	case resource.ArrayKind:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			g, err := jsonData(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case resource.ObjectKind:
		out := make(map[string]any, len(v.Object()))
		for k, e := range v.Object() {
			g, err := jsonData(e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s has no JSON form", describeValue(v))
}

// parseJSON parses one JSON document into a value, keeping every digit of
// numbers.
func parseJSON(s string) (resource.Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return resource.Value{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return resource.Value{}, errors.New("there is more text after the JSON value")
	}
	return resource.FromJSONData(g, parseDecimal)
}
