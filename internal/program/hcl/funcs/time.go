package funcs

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

func timeTable() map[string]function.Function {
	return map[string]function.Function{
		"timestamp": timestampFunc,
		"timecmp":   timeCmpFunc,
	}
}

var timestampFunc = function.New(&function.Spec{
	Description: "Returns a UTC timestamp string in RFC 3339 format.",
	Type:        function.StaticReturnType(cty.String),
	Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})

// planTimestampFunc returns ts: the time the plan was made, or unknown.
func planTimestampFunc(ts cty.Value) function.Function {
	return function.New(&function.Spec{
		Description: "Returns a UTC timestamp string in RFC 3339 format, fixed during a plan and the apply that follows it.",
		Type:        function.StaticReturnType(cty.String),
		Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
			return ts, nil
		},
	})
}

var timeCmpFunc = function.New(&function.Spec{
	Description: "Compares two timestamps and returns a number that represents the ordering of the instants those timestamps represent.",
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		a, err := parseTimestamp(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(0, err)
		}
		b, err := parseTimestamp(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(1, err)
		}
		switch {
		case a.Equal(b):
			return cty.NumberIntVal(0), nil
		case a.Before(b):
			return cty.NumberIntVal(-1), nil
		}
		return cty.NumberIntVal(1), nil
	},
})

// parseTimestamp parses an RFC 3339 timestamp, naming the part that is
// wrong rather than quoting Go's reference layout.
func parseTimestamp(ts string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, ts)
	if err == nil {
		return t, nil
	}
	pe, ok := err.(*time.ParseError)
	if !ok {
		return time.Time{}, err
	}
	if pe.LayoutElem == "" && pe.ValueElem == "" && pe.Message != "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp%s", pe.Message)
	}
	switch pe.LayoutElem {
	case "T":
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: missing required time introducer 'T'")
	case ":", "-":
		if pe.ValueElem == "" {
			return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string where %q is expected", pe.LayoutElem)
		}
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: found %q where %q is expected", pe.ValueElem, pe.LayoutElem)
	}
	what, ok := timestampParts[pe.LayoutElem]
	if !ok {
		what = "timestamp segment"
	}
	if pe.ValueElem == "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string before %s", what)
	}
	return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: cannot use %q as %s", pe.ValueElem, what)
}

var timestampParts = map[string]string{
	"2006": "year", "01": "month", "02": "day of month", "15": "hour",
	"04": "minute", "05": "second", "Z07:00": "UTC offset",
}
