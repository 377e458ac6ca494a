package resource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParsePath(t *testing.T) {
	tests := map[string]struct {
		text string
		want PropertyPath
		back string // formatted form, if not text
	}{
		"name":           {text: "root", want: PropertyPath{"root"}},
		"nested":         {text: "root.nested", want: PropertyPath{"root", "nested"}},
		"index":          {text: "a.b[0]", want: PropertyPath{"a", "b", 0}},
		"quoted dots":    {text: `a.b[0]["key.with.dots"]`, want: PropertyPath{"a", "b", 0, "key.with.dots"}},
		"quoted spaces":  {text: `root["key with spaces"]`, want: PropertyPath{"root", "key with spaces"}},
		"quoted simple":  {text: `root["plain"]`, want: PropertyPath{"root", "plain"}, back: "root.plain"},
		"wildcard dot":   {text: "a.*.b", want: PropertyPath{"a", Wildcard{}, "b"}, back: "a[*].b"},
		"wildcard index": {text: "a[*]", want: PropertyPath{"a", Wildcard{}}},
		"leading quote":  {text: `["a.b"].c`, want: PropertyPath{"a.b", "c"}},
		"escaped quote":  {text: `a["say \"hi\""]`, want: PropertyPath{"a", `say "hi"`}},
		"dollar name":    {text: "$ref", want: PropertyPath{"$ref"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParsePath(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParsePath(%q) (-want +got):\n%s", tc.text, diff)
			}
			back := tc.back
			if back == "" {
				back = tc.text
			}
			if got.String() != back {
				t.Errorf("String() = %q, want %q", got.String(), back)
			}
		})
	}
	for _, bad := range []string{"", "a..b", "a[", "a[x]", "a[-1]", `a["x`, `a["x"`, "a.", "a]b", "[01]"} {
		if p, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) = %v, want an error", bad, p)
		}
	}
}

func TestPathRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(t, "len")
		var p PropertyPath
		for i := range n {
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0:
				p = append(p, rapid.String().Draw(t, "key"))
			case 1:
				if i > 0 {
					p = append(p, rapid.IntRange(0, 1000).Draw(t, "index"))
				} else {
					p = append(p, "root")
				}
			default:
				p = append(p, Wildcard{})
			}
		}
		back, err := ParsePath(p.String())
		if err != nil {
			t.Fatalf("ParsePath(%q): %v", p.String(), err)
		}
		if diff := cmp.Diff(p, back); diff != "" {
			t.Fatalf("round trip of %q (-want +got):\n%s", p.String(), diff)
		}
	})
}

func TestPathGetSetDelete(t *testing.T) {
	root := MustFromGo(map[string]any{"a": map[string]any{"b": []any{1, map[string]any{"k.x": "v"}}}})
	root = MustFromGo(map[string]any{"a": root.Object()["a"], "s": MakeSecret(NewString("hidden"))})
	if v, ok := MustParsePath(`a.b[1]["k.x"]`).Get(root); !ok || v.Str() != "v" {
		t.Errorf("Get = %v, %v", v, ok)
	}
	set, ok := MustParsePath("a.b[0]").Set(root, NewString("new"))
	if !ok || set.Object()["a"].Object()["b"].Array()[0].Str() != "new" {
		t.Errorf("Set = %v", set)
	}
	if root.Object()["a"].Object()["b"].Array()[0].Number() != 1 {
		t.Errorf("Set modified its input")
	}
	if _, ok := MustParsePath("a.b[7]").Set(root, Null()); ok {
		t.Errorf("Set past an array's end succeeded")
	}
	del, ok := MustParsePath("a.b").Delete(root)
	if _, has := del.Object()["a"].Object()["b"]; !ok || has {
		t.Errorf("Delete = %v, %v", del, ok)
	}
	if s, _ := MustParsePath("s").Get(root); !s.IsSecret() {
		t.Errorf("a secret lost its mark through Get")
	}
	if !MustParsePath("a[*]").Contains(MustParsePath("a.b.c")) || MustParsePath("a.b").Contains(MustParsePath("a")) {
		t.Errorf("Contains is wrong")
	}
}

// TestPathGetThroughSecret: a value reached through a secret object or
// array is secret, however deep; one reached around it is not, and
// Delete under a secret does not mark the secret twice.
func TestPathGetThroughSecret(t *testing.T) {
	root := NewObject(Object{
		"m":     MakeSecret(MustFromGo(map[string]any{"k": "v", "deep": map[string]any{"x": "y"}})),
		"l":     MakeSecret(NewArray(NewString("a"), NewString("b"))),
		"mixed": NewObject(Object{"s": MakeSecret(NewObject(Object{"in": NewString("z")})), "p": NewString("plain")}),
	})
	tests := map[string]struct {
		path   string
		want   string
		secret bool
	}{
		"key of a secret map":      {path: "m.k", want: "v", secret: true},
		"two levels down":          {path: "m.deep.x", want: "y", secret: true},
		"element of a secret list": {path: "l[1]", want: "b", secret: true},
		"inside a nested secret":   {path: "mixed.s.in", want: "z", secret: true},
		"beside a secret":          {path: "mixed.p", want: "plain"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := MustParsePath(tc.path).Get(root)
			if !ok {
				t.Fatalf("Get(%s) found nothing", tc.path)
			}
			if got.IsSecret() != tc.secret {
				t.Errorf("Get(%s).IsSecret() = %v, want %v", tc.path, got.IsSecret(), tc.secret)
			}
			if got.SecretElement().Str() != tc.want {
				t.Errorf("Get(%s) = %v, want %q", tc.path, got, tc.want)
			}
		})
	}
	del, ok := MustParsePath("m.deep.x").Delete(root)
	want := MakeSecret(MustFromGo(map[string]any{"k": "v", "deep": map[string]any{}}))
	if !ok || !del.Object()["m"].Equal(want) {
		t.Errorf("Delete(m.deep.x) = %v, %v; want m = %v", del.Object()["m"], ok, want)
	}
}
