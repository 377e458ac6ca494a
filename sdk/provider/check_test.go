package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestCheckFailuresPerProperty(t *testing.T) {
	p := configured(t, nil)
	tests := map[string]struct {
		news resource.Object
		want []provider.CheckFailure
	}{
		"valid": {
			news: obj(map[string]any{"name": "rex", "size": 2, "tags": []any{map[string]any{"key": "k"}}}),
		},
		"missing required": {
			news: obj(map[string]any{"size": 2}),
			want: []provider.CheckFailure{{Property: "name", Reason: `missing required property "name"`}},
		},
		"null counts as missing": {
			news: resource.Object{"name": resource.Null()},
			want: []provider.CheckFailure{{Property: "name", Reason: `missing required property "name"`}},
		},
		"type mismatch": {
			news: obj(map[string]any{"name": 7, "size": "big", "labels": []any{"x"}}),
			want: []provider.CheckFailure{
				{Property: "name", Reason: "expected a string, got a number"},
				{Property: "size", Reason: "expected an integer, got a string"},
				{Property: "labels", Reason: "expected a map, got an array"},
			},
		},
		"unknown property with a suggestion": {
			news: obj(map[string]any{"name": "rex", "szie": 2}),
			want: []provider.CheckFailure{{Property: "szie", Reason: `unknown property "szie"; did you mean "size"?`}},
		},
		"unknown property without a close name": {
			news: obj(map[string]any{"name": "rex", "zzzzzzzz": 2}),
			want: []provider.CheckFailure{{Property: "zzzzzzzz",
				Reason: `unknown property "zzzzzzzz"; the properties are big, extra, labels, name, password, size, small, tags, weight`}},
		},
		"nested paths": {
			news: obj(map[string]any{"name": "rex", "tags": []any{
				map[string]any{"key": "a"},
				map[string]any{"value": 1, "colour": "red"},
			}, "labels": map[string]any{"a.b": true}}),
			want: []provider.CheckFailure{
				{Property: "tags[1].colour", Reason: `unknown property "colour"; the properties are key, pinned, value`},
				{Property: "tags[1].key", Reason: `missing required property "key"`},
				{Property: "tags[1].value", Reason: "expected a string, got a number"},
				{Property: `labels["a.b"]`, Reason: "expected a string, got a bool"},
			},
		},
		"integers": {
			news: obj(map[string]any{"name": "rex", "size": 1.5, "small": 300, "big": -1}),
			want: []provider.CheckFailure{
				{Property: "size", Reason: "expected an integer, got 1.5"},
				{Property: "small", Reason: "300 is out of range: it must be between 0 and 255"},
			},
		},
		"unknowns fit every type": {
			news: resource.Object{"name": resource.Unknown(), "size": resource.Unknown(),
				"tags": resource.NewArray(resource.Unknown())},
		},
		"secrets are checked by their element": {
			news: resource.Object{"name": secret(num(1)), "password": secret(str("pw"))},
			want: []provider.CheckFailure{{Property: "name", Reason: "expected a string, got a number"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := p.Check(context.Background(), provider.CheckRequest{URN: basicURN("a"), News: tc.news})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, resp.Failures); d != "" {
				t.Errorf("failures (-want +got):\n%s", d)
			}
		})
	}
}

func TestCheckAppliesDefaults(t *testing.T) {
	p := configured(t, nil)
	resp, err := p.Check(context.Background(), provider.CheckRequest{URN: basicURN("a"),
		News: resource.Object{"name": secret(str("rex")), "extra": resource.Unknown()}})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"name": secret(str("rex")), "size": num(3), "extra": resource.Unknown()}
	if d := cmp.Diff(want, resp.Inputs, valueCmp); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
}

func TestCheckerRunsOnValidInputsAndKeepsUnknowns(t *testing.T) {
	var seen provider.CheckOp[toyArgs]
	full := &fullToy{CheckF: func(_ context.Context, op provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error) {
		seen = op
		in := op.News
		in.Labels = map[string]string{"checked": "yes"}
		var fs []provider.CheckFailure
		if in.Size > 10 {
			fs = append(fs, provider.CheckFailure{Property: "size", Reason: "at most 10"})
		}
		return provider.CheckResult[toyArgs]{Inputs: in, Failures: fs}, nil
	}}
	p := configured(t, full)
	news := resource.Object{"name": resource.Unknown(), "size": num(11), "password": secret(str("pw")),
		"tags": resource.NewArray(resource.NewObject(resource.Object{"key": resource.Unknown()}))}
	resp, err := p.Check(context.Background(), provider.CheckRequest{URN: fullURN("a"), News: news,
		Olds: obj(map[string]any{"name": "old", "size": 1})})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{
		"name": resource.Unknown(), "size": num(11), "password": secret(str("pw")),
		"tags":   news["tags"],
		"labels": resource.NewObject(resource.Object{"checked": str("yes")}),
	}
	if d := cmp.Diff(want, resp.Inputs, valueCmp); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]provider.CheckFailure{{Property: "size", Reason: "at most 10"}}, resp.Failures); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
	if !seen.HasOlds || seen.Olds.Name != "old" || seen.News.Password != "pw" || !cmp.Equal(seen.Unknowns, []string{"name", "tags"}) {
		t.Errorf("Checker saw %+v", seen)
	}
}

func TestCheckerNotCalledOnInvalidInputs(t *testing.T) {
	called := false
	full := &fullToy{CheckF: func(_ context.Context, op provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error) {
		called = true
		return provider.CheckResult[toyArgs]{Inputs: op.News}, nil
	}}
	p := configured(t, full)
	resp, err := p.Check(context.Background(), provider.CheckRequest{URN: fullURN("a"), News: resource.Object{}})
	if err != nil || len(resp.Failures) != 1 || called {
		t.Errorf("Check = %v, %v; checker called: %v", resp, err, called)
	}
}

func TestCheckConfig(t *testing.T) {
	p := newToys(t, nil)
	tests := map[string]struct {
		news     resource.Object
		want     resource.Object
		failures []provider.CheckFailure
	}{
		"defaults": {
			news: resource.Object{},
			want: resource.Object{"greeting": str("hello")},
		},
		"strings coerced, secrets kept, reserved keys passed": {
			news: resource.Object{"retries": str("3"), "debug": secret(str("true")), "version": str("1.0.0")},
			want: resource.Object{"greeting": str("hello"), "retries": num(3), "debug": secret(resource.NewBool(true)), "version": str("1.0.0")},
		},
		"bad values": {
			news:     resource.Object{"retries": str("many"), "colour": str("red")},
			want:     resource.Object{"greeting": str("hello"), "retries": str("many"), "colour": str("red")},
			failures: []provider.CheckFailure{{Property: "colour", Reason: `unknown property "colour"; the properties are debug, greeting, region, retries`}, {Property: "retries", Reason: "expected an integer, got a string"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := p.CheckConfig(context.Background(), provider.CheckRequest{News: tc.news})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, resp.Inputs, valueCmp); d != "" {
				t.Errorf("inputs (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.failures, resp.Failures); d != "" {
				t.Errorf("failures (-want +got):\n%s", d)
			}
		})
	}
}
