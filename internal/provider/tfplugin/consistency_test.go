package tfplugin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestCompatible(t *testing.T) {
	s := &schema{block: testBlock()}
	tests := map[string]struct {
		want, got cty.Value
		found     []string
	}{
		"equal": {
			want: value(map[string]cty.Value{"name": cty.StringVal("a")}),
			got:  value(map[string]cty.Value{"name": cty.StringVal("a")}),
		},
		"unknown may become anything": {
			want: value(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "rules": cty.UnknownVal(cty.List(ruleObj))}),
			got:  value(map[string]cty.Value{"id": cty.StringVal("x"), "rules": cty.ListVal([]cty.Value{rule("a", cty.NumberIntVal(1))})}),
		},
		"changed string": {
			want:  value(map[string]cty.Value{"name": cty.StringVal("a")}),
			got:   value(map[string]cty.Value{"name": cty.StringVal("b")}),
			found: []string{`name: was "a", but now "b"`},
		},
		"sensitive values are hidden": {
			want:  value(map[string]cty.Value{"token": cty.StringVal("s1")}),
			got:   value(map[string]cty.Value{"token": cty.StringVal("s2")}),
			found: []string{"token: was (sensitive value), but now (sensitive value)"},
		},
		"null became a value": {
			want:  value(nil),
			got:   value(map[string]cty.Value{"size": cty.NumberIntVal(1)}),
			found: []string{"size: was null, but now 1"},
		},
		"nested list element": {
			want:  value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("a", "1"), inner("b", "2")})}),
			got:   value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("a", "1"), inner("b", "3")})}),
			found: []string{`disk[1].gen: was "2", but now "3"`},
		},
		"list length": {
			want:  value(map[string]cty.Value{"disk": cty.ListVal([]cty.Value{inner("a", "1")})}),
			got:   value(map[string]cty.Value{"disk": cty.ListValEmpty(innerType)}),
			found: []string{`disk: was [{"gen": "1", "key": "a"}], but now []`},
		},
		"sets compare as sets": {
			want: value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("a", "1"), inner("b", "2")})}),
			got:  value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("b", "2"), inner("a", "1")})}),
		},
		"set element changed": {
			want:  value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("a", "1")})}),
			got:   value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("a", "2")})}),
			found: []string{`opt: was [{"gen": "1", "key": "a"}], but now [{"gen": "2", "key": "a"}]`},
		},
		"set with unknowns is not checked": {
			want: value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("a"), "gen": cty.UnknownVal(cty.String)})})}),
			got:  value(map[string]cty.Value{"opt": cty.SetVal([]cty.Value{inner("a", "1"), inner("b", "2")})}),
		},
		"map key removed": {
			want:  value(map[string]cty.Value{"meta": cty.MapVal(map[string]cty.Value{"k": inner("a", "")})}),
			got:   value(map[string]cty.Value{"meta": cty.MapValEmpty(innerType)}),
			found: []string{`meta: was {"k": {"gen": null, "key": "a"}}, but now {}`},
		},
		"result still unknown": {
			want:  value(map[string]cty.Value{"id": cty.StringVal("x")}),
			got:   value(map[string]cty.Value{"id": cty.UnknownVal(cty.String)}),
			found: []string{`id: was "x", but now (known after apply)`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var found []string
			for _, m := range compatible(tc.want, tc.got) {
				found = append(found, m.describe(s))
			}
			if diff := cmp.Diff(tc.found, found); diff != "" {
				t.Errorf("mismatches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownPaths(t *testing.T) {
	v := value(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "disk": cty.ListVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("a"), "gen": cty.UnknownVal(cty.String)})})})
	var got []string
	for _, p := range unknownPaths(v) {
		got = append(got, formatPath(p))
	}
	if diff := cmp.Diff([]string{"disk[0].gen", "id"}, sortedStrings(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUnknownsToNulls(t *testing.T) {
	v := value(map[string]cty.Value{"id": cty.StringVal("i"), "token": cty.UnknownVal(cty.String)})
	want := value(map[string]cty.Value{"id": cty.StringVal("i")})
	if got := unknownsToNulls(v); !got.RawEquals(want) {
		t.Errorf("got %s, want %s", fromCty(got), fromCty(want))
	}
}
