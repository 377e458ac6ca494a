package tfplugin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	plschema "github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var valueEqual = cmp.Comparer(resource.Value.Equal)

func TestConfigBuilderStrict(t *testing.T) {
	tests := map[string]struct {
		inputs resource.Object
		want   []provider.CheckFailure
	}{
		"valid":             {inputs: obj(map[string]any{"name": "n", "disk": []any{map[string]any{"key": "k"}}})},
		"unknowns are fine": {inputs: resource.Object{"name": resource.Unknown(), "disk": resource.Unknown()}},
		"missing required":  {inputs: obj(map[string]any{}), want: []provider.CheckFailure{{Property: "name", Reason: "missing required property"}}},
		"provider-set": {
			inputs: obj(map[string]any{"name": "n", "id": "x", "disk": []any{map[string]any{"gen": "g"}}}),
			want: []provider.CheckFailure{
				{Property: "disk[0].gen", Reason: "this property is set by the provider and cannot be configured; remove it"},
				{Property: "id", Reason: "this property is set by the provider and cannot be configured; remove it"},
			},
		},
		"nested wrong type": {
			inputs: obj(map[string]any{"name": "n", "rules": []any{map[string]any{"name": "r", "port": "http"}}}),
			want:   []provider.CheckFailure{{Property: "rules[0].port", Reason: `expected a number, found the string "http"`}},
		},
		"block not an object": {
			inputs: obj(map[string]any{"name": "n", "disk": []any{"d"}}),
			want:   []provider.CheckFailure{{Property: "disk[0]", Reason: `expected an object, found the string "d"`}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cb := configBuilder{strict: true}
			cb.root(testBlock(), tc.inputs)
			got := cb.failures
			sortFailures(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

func sortFailures(fs []provider.CheckFailure) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Property < fs[j-1].Property; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

func TestConfigBuilderBlockCounts(t *testing.T) {
	b := &block{blocks: map[string]*nestedBlock{
		"one": {nesting: nestingList, minItems: 1, maxItems: 1, block: &block{}},
	}}
	for name, tc := range map[string]struct {
		in   resource.Object
		want string
	}{
		"too few":  {obj(map[string]any{}), "at least 1 blocks are required, found 0"},
		"too many": {obj(map[string]any{"one": []any{map[string]any{}, map[string]any{}}}), "at most 1 blocks are allowed, found 2"},
	} {
		t.Run(name, func(t *testing.T) {
			cb := configBuilder{strict: true}
			cb.root(b, tc.in)
			want := []provider.CheckFailure{{Property: "one", Reason: tc.want}}
			if diff := cmp.Diff(want, cb.failures); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The lenient builder (plan time) drops what the provider sets and shapes
// absent blocks as Terraform does.
func TestConfigBuilderLenient(t *testing.T) {
	cb := configBuilder{ignore: map[string]bool{"version": true}}
	got := cb.root(testBlock(), obj(map[string]any{
		"name": "n", "id": "dropped", "version": "1.0", "single": []any{map[string]any{"key": "s"}},
	}))
	want := value(map[string]cty.Value{"name": cty.StringVal("n"), "single": inner("s", "")})
	if len(cb.failures) > 0 {
		t.Fatalf("failures: %v", cb.failures)
	}
	if !got.RawEquals(want) {
		t.Errorf("got %s\nwant %s", fromCty(got), fromCty(want))
	}
}

func TestSettableAndSensitive(t *testing.T) {
	state := obj(map[string]any{
		"name": "n", "id": "i", "size": 3, "token": "t", "password": nil,
		"disk":  []any{map[string]any{"key": "k", "gen": "g"}},
		"opt":   []any{},
		"rules": []any{map[string]any{"name": "r", "port": 80}},
	})
	wantSettable := obj(map[string]any{
		"name": "n", "size": 3, "disk": []any{map[string]any{"key": "k"}},
		"rules": []any{map[string]any{"name": "r", "port": 80}},
	})
	if diff := cmp.Diff(wantSettable, settable(testBlock(), state), valueEqual); diff != "" {
		t.Errorf("settable (-want +got):\n%s", diff)
	}
	marked := markSensitive(testBlock(), state)
	if !marked["token"].IsSecret() || marked["name"].IsSecret() {
		t.Errorf("markSensitive: token %v, name %v", marked["token"], marked["name"])
	}
}

func TestRefreshedInputs(t *testing.T) {
	outputs := obj(map[string]any{"name": "drifted", "id": "i", "size": 4})
	olds := resource.Object{
		"name": resource.MakeSecret(resource.NewString("n")),
		"size": resource.NewNumber(3),
	}
	want := resource.Object{"name": resource.MakeSecret(resource.NewString("drifted")), "size": resource.NewNumber(4)}
	if diff := cmp.Diff(want, refreshedInputs(testBlock(), outputs, olds), valueEqual); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStickySecrets(t *testing.T) {
	outputs := obj(map[string]any{"a": "x", "b": "y"})
	got := stickySecrets(outputs, resource.Object{"a": resource.MakeSecret(resource.NewString("x")), "b": resource.NewString("y")})
	if !got["a"].IsSecret() || got["b"].IsSecret() {
		t.Errorf("got %v", got)
	}
	if outputs["a"].IsSecret() {
		t.Errorf("the outputs given were modified")
	}
	// Nested: only the paths the argument holds secrets at.
	secret, s := resource.MakeSecret, resource.NewString
	nested := resource.Object{
		"keepers": resource.NewObject(resource.Object{"a": s("x"), "b": s("y")}),
		"list":    resource.NewArray(s("x"), s("y")),
		"set":     resource.NewArray(s("x")),
	}
	got = stickySecrets(nested, resource.Object{
		"keepers": resource.NewObject(resource.Object{"a": secret(s("x")), "b": s("y")}),
		"list":    resource.NewArray(s("x"), secret(s("y"))),
		"set":     resource.NewArray(s("x"), secret(s("y"))), // the provider dropped an element
	})
	want := resource.Object{
		"keepers": resource.NewObject(resource.Object{"a": secret(s("x")), "b": s("y")}),
		"list":    resource.NewArray(s("x"), secret(s("y"))),
		"set":     secret(resource.NewArray(s("x"))),
	}
	if diff := cmp.Diff(want, got, valueEqual); diff != "" {
		t.Errorf("nested secrets (-want +got):\n%s", diff)
	}
}

func TestIgnoreChanges(t *testing.T) {
	olds := obj(map[string]any{"name": "old", "tags": map[string]any{"a": "1"}})
	news := obj(map[string]any{"name": "new", "tags": map[string]any{"a": "2", "b": "3"}, "extra": "e"})
	got := ignoreChanges(news, olds, []resource.PropertyPath{{"name"}, {"tags", "a"}, {"extra"}})
	want := obj(map[string]any{"name": "old", "tags": map[string]any{"a": "1", "b": "3"}})
	if diff := cmp.Diff(want, got, valueEqual); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRealReplacements(t *testing.T) {
	prior := value(map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(1)})
	planned := value(map[string]cty.Value{"name": cty.StringVal("b"), "size": cty.NumberIntVal(1), "id": cty.UnknownVal(cty.String)})
	paths := []cty.Path{
		cty.GetAttrPath("name"), cty.GetAttrPath("size"), cty.GetAttrPath("id"),
		cty.GetAttrPath("disk").IndexInt(5),
	}
	var got []string
	for _, p := range realReplacements(prior, planned, paths) {
		got = append(got, formatPath(p))
	}
	if diff := cmp.Diff([]string{"name", "id"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r := realReplacements(cty.NullVal(prior.Type()), planned, paths); r != nil {
		t.Errorf("a create replaced %v", r)
	}
}

func TestDiffResponse(t *testing.T) {
	prior := value(map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(1)})
	planned := value(map[string]cty.Value{"name": cty.StringVal("b"), "size": cty.UnknownVal(cty.Number)})
	got := diffResponse(prior, planned, []cty.Path{cty.GetAttrPath("name")})
	want := provider.DiffResponse{
		Changes: provider.DiffSome, ReplaceKeys: []string{"name"}, ChangedKeys: []string{"name", "size"},
		DeleteBeforeReplace: true,
		DetailedDiff: resource.DetailedDiff{
			"name": {Kind: resource.DiffUpdate, Replace: true},
			"size": {Kind: resource.DiffUpdate},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if none := diffResponse(prior, prior, nil); none.Changes != provider.DiffNone {
		t.Errorf("no change: %+v", none)
	}
}

func TestNames(t *testing.T) {
	for file, want := range map[string][2]string{
		"/x/terraform-provider-random_v3.9.0": {"random", "3.9.0"},
		"terraform-provider-local":            {"local", ""},
		"terraform-provider-tls_v4.3.0.exe":   {"tls", "4.3.0"},
	} {
		name, version, ok := ParseBinaryName(file)
		if !ok || name != want[0] || version != want[1] {
			t.Errorf("ParseBinaryName(%q) = %q, %q, %v", file, name, version, ok)
		}
	}
	if _, _, ok := ParseBinaryName("pulumi-resource-random"); ok {
		t.Errorf("a Pulumi plugin parsed as a Terraform provider")
	}
	for in, want := range map[string]string{"random_pet": "random:index:random_pet", "local_file": "local:index:local_file", "noprefix": "noprefix:index:noprefix"} {
		if got := TypeToken(in); got != want {
			t.Errorf("TypeToken(%q) = %q, want %q", in, got, want)
		}
	}
	if got := typeName("random:index:random_pet"); got != "random_pet" {
		t.Errorf("typeName = %q", got)
	}
}

func TestPropertyPath(t *testing.T) {
	p := cty.GetAttrPath("a").IndexString("k.x").IndexInt(2).GetAttr("b")
	if got := propertyPath(p).String(); got != `a["k.x"][2].b` {
		t.Errorf("got %s", got)
	}
	set := cty.GetAttrPath("s").Index(cty.ObjectVal(map[string]cty.Value{"x": cty.True})).GetAttr("y")
	if got := propertyPath(set).String(); got != "s" {
		t.Errorf("a path through a set element should stop at the set, got %s", got)
	}
}

func TestExportProperties(t *testing.T) {
	in := properties(testBlock(), true)
	out := properties(testBlock(), false)
	if _, ok := in["id"]; ok {
		t.Errorf("computed-only id is an input")
	}
	if p := in["size"]; !p.Computed || p.Required {
		t.Errorf("size = %+v, want optional and computed", p)
	}
	if !out["token"].Secret {
		t.Errorf("token is not secret")
	}
	if got := in["rules"].Type; got.Kind != plschema.TypeArray || got.Elem.Properties["port"].Type.Kind != plschema.TypeNumber {
		t.Errorf("rules type = %+v", got)
	}
	if got := in["meta"].Type; got.Kind != plschema.TypeMap || got.Elem.Kind != plschema.TypeObject {
		t.Errorf("meta type = %+v", got)
	}
	if got := in["single"].Type; got.Kind != plschema.TypeObject {
		t.Errorf("single type = %+v", got)
	}
}

func TestQuietLogs(t *testing.T) {
	all := []string{"TF_LOG_SDK=off", "TF_LOG_SDK_PROTO=off", "TF_LOG_SDK_FRAMEWORK=off", "TF_LOG_SDK_HELPER_SCHEMA=off", "TF_LOG_PROVIDER=warn"}
	tests := map[string]struct {
		env, extra []string
		want       []string
	}{
		"quiet by default":      {env: []string{"HOME=/h"}, want: all},
		"TF_LOG asks for logs":  {env: []string{"TF_LOG=debug"}},
		"a user's level stands": {extra: []string{"TF_LOG_PROVIDER=trace"}, want: all[:4]},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, quietLogs(tc.env, tc.extra)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
