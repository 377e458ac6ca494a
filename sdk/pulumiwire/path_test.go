package pulumiwire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/testing/protocmp"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestParsePath(t *testing.T) {
	tests := map[string]struct {
		in   string
		want resource.PropertyPath
	}{
		"name":            {"root", resource.PropertyPath{"root"}},
		"nested":          {"a.b.c", resource.PropertyPath{"a", "b", "c"}},
		"index":           {"a[0].b", resource.PropertyPath{"a", 0, "b"}},
		"quoted":          {`a["x.y"]`, resource.PropertyPath{"a", "x.y"}},
		"escaped quote":   {`["say \"hi\""].n`, resource.PropertyPath{`say "hi"`, "n"}},
		"backslash":       {`["a\\b"]`, resource.PropertyPath{`a\\b`}},
		"wildcard":        {"a[*].b", resource.PropertyPath{"a", resource.Wildcard{}, "b"}},
		"bare wildcard":   {"a.*", resource.PropertyPath{"a", resource.Wildcard{}}},
		"quoted star":     {`a["*"]`, resource.PropertyPath{"a", "*"}},
		"sloppy dot":      {`a.["b"]`, resource.PropertyPath{"a", "b"}},
		"dash in name":    {"tags.foo-bar", resource.PropertyPath{"tags", "foo-bar"}},
		"empty":           {"", nil},
		"index then name": {"[1].x", resource.PropertyPath{1, "x"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParsePath(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, in := range []string{".a", "a.", "a[", "a[x]", "a[-1]", `a["b`, `a["b"`, `a["b"x]`} {
		if _, err := ParsePath(in); err == nil || !strings.Contains(err.Error(), "invalid property path") {
			t.Errorf("ParsePath(%q) error = %v, want an invalid property path error", in, err)
		}
	}
}

func TestFormatPath(t *testing.T) {
	tests := map[string]struct {
		in   resource.PropertyPath
		want string
	}{
		"simple":   {resource.PropertyPath{"a", "b_1"}, "a.b_1"},
		"index":    {resource.PropertyPath{"a", 2, "c"}, "a[2].c"},
		"quoted":   {resource.PropertyPath{"tags", "Name.x", `q"`}, `tags["Name.x"]["q\""]`},
		"wildcard": {resource.PropertyPath{"a", resource.Wildcard{}}, "a[*]"},
		"empty":    {resource.PropertyPath{""}, `[""]`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatPath(tc.in); got != tc.want {
				t.Errorf("FormatPath = %s, want %s", got, tc.want)
			}
		})
	}
}

func genPath() *rapid.Generator[resource.PropertyPath] {
	elem := rapid.OneOf(
		rapid.Map(rapid.String(), func(s string) any { return s }),
		rapid.Map(rapid.IntRange(0, 1000), func(i int) any { return i }),
		rapid.Just[any](resource.Wildcard{}),
	)
	return rapid.Map(rapid.SliceOfN(elem, 1, 5), func(es []any) resource.PropertyPath {
		return resource.PropertyPath(es)
	}).Filter(func(p resource.PropertyPath) bool {
		for _, e := range p {
			if s, ok := e.(string); ok && unwritable(s) {
				return false
			}
		}
		return true
	})
}

func TestPathRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPath().Draw(t, "path")
		got, err := ParsePath(FormatPath(p))
		if err != nil {
			t.Fatalf("%s does not parse: %v", FormatPath(p), err)
		}
		if diff := cmp.Diff(p, got); diff != "" {
			t.Fatalf("%s read back differently (-want +got):\n%s", FormatPath(p), diff)
		}
		if back := FromPlinthPath(ToPlinthPath(FormatPath(p))); back != FormatPath(p) {
			t.Fatalf("plinth form lost something: %s became %s", FormatPath(p), back)
		}
	})
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"a.b[0]", `["x\"y"].z[*]`, "a.[", `a["`, "[99999999999999999999]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil || len(p) == 0 {
			return
		}
		for _, e := range p {
			if k, ok := e.(string); ok && unwritable(k) {
				return
			}
		}
		again, err := ParsePath(FormatPath(p))
		if err != nil {
			t.Fatalf("%q parsed, but its formatting %q does not: %v", s, FormatPath(p), err)
		}
		if FormatPath(again) != FormatPath(p) {
			t.Fatalf("formatting is not stable: %q then %q", FormatPath(p), FormatPath(again))
		}
	})
}

func TestDetailedDiffRoundTrip(t *testing.T) {
	d := resource.DetailedDiff{
		"a":              {Kind: resource.DiffAdd},
		"b[0]":           {Kind: resource.DiffDelete, Replace: true},
		`tags["x.y"]`:    {Kind: resource.DiffUpdate, InputDiff: true},
		"c.d":            {Kind: resource.DiffUpdate, Replace: true, InputDiff: true},
		"e":              {Kind: resource.DiffAdd, Replace: true},
		"f":              {Kind: resource.DiffDelete},
		`["with space"]`: {Kind: resource.DiffUpdate},
	}
	wire := EncodeDetailedDiff(d)
	want := map[string]*pulumirpc.PropertyDiff{
		"a":              {Kind: pulumirpc.PropertyDiff_ADD},
		"b[0]":           {Kind: pulumirpc.PropertyDiff_DELETE_REPLACE},
		`tags["x.y"]`:    {Kind: pulumirpc.PropertyDiff_UPDATE, InputDiff: true},
		"c.d":            {Kind: pulumirpc.PropertyDiff_UPDATE_REPLACE, InputDiff: true},
		"e":              {Kind: pulumirpc.PropertyDiff_ADD_REPLACE},
		"f":              {Kind: pulumirpc.PropertyDiff_DELETE},
		`["with space"]`: {Kind: pulumirpc.PropertyDiff_UPDATE},
	}
	if diff := cmp.Diff(want, wire, protocmp.Transform()); diff != "" {
		t.Errorf("wire form (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(d, DecodeDetailedDiff(wire)); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestDecodeDetailedDiffNormalizesPaths(t *testing.T) {
	got := DecodeDetailedDiff(map[string]*pulumirpc.PropertyDiff{
		"tags.foo-bar": {Kind: pulumirpc.PropertyDiff_UPDATE},
		"x[":           {Kind: pulumirpc.PropertyDiff_Kind(42)},
	})
	want := resource.DetailedDiff{
		`tags["foo-bar"]`: {Kind: resource.DiffUpdate},
		"x[":              {Kind: resource.DiffUpdate},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheckFailures(t *testing.T) {
	fs := []CheckFailure{{Property: `tags["a.b"]`, Reason: "too long"}, {Reason: "general"}}
	wire := EncodeCheckFailures(fs)
	if wire[0].GetProperty() != `tags["a.b"]` || wire[1].GetProperty() != "" {
		t.Errorf("wire properties %q, %q", wire[0].GetProperty(), wire[1].GetProperty())
	}
	if diff := cmp.Diff(fs, DecodeCheckFailures(wire)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// unwritable reports whether the grammar cannot write key: it must be
// quoted (it holds '.' or '[') but the quoted form cannot end in '\'.
func unwritable(key string) bool {
	return strings.HasSuffix(key, `\`) && strings.ContainsAny(key, ".[")
}
