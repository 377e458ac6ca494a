package resource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiffObjects(t *testing.T) {
	o := func(m map[string]any) Object { return ObjectFromGo(m) }
	tests := map[string]struct {
		olds, news Object
		replace    []string
		want       DetailedDiff
	}{
		"equal": {o(map[string]any{"a": 1}), o(map[string]any{"a": 1}), nil, DetailedDiff{}},
		"add, update, delete": {
			o(map[string]any{"a": 1, "b": "x"}), o(map[string]any{"a": 2, "c": true}), nil,
			DetailedDiff{"a": {Kind: DiffUpdate, InputDiff: true}, "b": {Kind: DiffDelete, InputDiff: true}, "c": {Kind: DiffAdd, InputDiff: true}},
		},
		"null is missing": {o(map[string]any{"a": nil}), o(map[string]any{}), nil, DetailedDiff{}},
		"nested": {
			o(map[string]any{"t": map[string]any{"k": 1, "j": 1}}), o(map[string]any{"t": map[string]any{"k": 2, "j": 1}}), nil,
			DetailedDiff{"t.k": {Kind: DiffUpdate, InputDiff: true}},
		},
		"arrays": {
			o(map[string]any{"l": []any{1, 2}}), o(map[string]any{"l": []any{1, 3, 4}}), nil,
			DetailedDiff{"l[1]": {Kind: DiffUpdate, InputDiff: true}, "l[2]": {Kind: DiffAdd, InputDiff: true}},
		},
		"replace on change": {
			o(map[string]any{"t": map[string]any{"k": 1}, "x": 1}), o(map[string]any{"t": map[string]any{"k": 2}, "x": 2}), []string{"t"},
			DetailedDiff{"t.k": {Kind: DiffUpdate, Replace: true, InputDiff: true}, "x": {Kind: DiffUpdate, InputDiff: true}},
		},
		"unknown is a change": {
			o(map[string]any{"a": 1}), Object{"a": Unknown()}, nil,
			DetailedDiff{"a": {Kind: DiffUpdate, InputDiff: true}},
		},
		"secretness alone is no change": {
			o(map[string]any{"a": "s"}), Object{"a": MakeSecret(NewString("s"))}, nil, DetailedDiff{},
		},
		"type change": {
			o(map[string]any{"a": []any{1}}), o(map[string]any{"a": "1"}), nil,
			DetailedDiff{"a": {Kind: DiffUpdate, InputDiff: true}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var roc []PropertyPath
			for _, r := range tc.replace {
				roc = append(roc, MustParsePath(r))
			}
			if diff := cmp.Diff(tc.want, DiffObjects(tc.olds, tc.news, roc)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValueEqualAndSecrets(t *testing.T) {
	big1, _ := ParseNumber("12345678901234567891")
	big2, _ := ParseNumber("12345678901234567892")
	cases := []struct {
		a, b  Value
		equal bool
	}{
		{NewNumber(1), NewNumber(1), true},
		{big1, big2, false},
		{big1, big1, true},
		{MakeSecret(NewString("x")), NewString("x"), false},
		{MakeSecret(NewString("x")), MakeSecret(NewString("x")), true},
		{Unknown(), Unknown(), true},
		{NewAsset(NewTextAsset("hi")), NewAsset(NewTextAsset("hi")), true},
		{NewAsset(NewTextAsset("hi")), NewAsset(NewTextAsset("ho")), false},
		{NewArray(NewNumber(1)), NewArray(NewNumber(1), Null()), false},
	}
	for i, c := range cases {
		if got := c.a.Equal(c.b); got != c.equal {
			t.Errorf("case %d: %v.Equal(%v) = %v", i, c.a, c.b, got)
		}
	}
	nested := MustFromGo(map[string]any{"a": []any{MakeSecret(NewString("s"))}})
	if !nested.ContainsSecrets() || nested.IsSecret() {
		t.Errorf("ContainsSecrets/IsSecret wrong for %v", nested)
	}
	plain, had := nested.Unsecret()
	if !had || plain.ContainsSecrets() {
		t.Errorf("Unsecret left secrets: %v", plain)
	}
	if !Sticky(NewString("joined"), NewString("a"), nested).IsSecret() {
		t.Errorf("a value computed from a secret is not secret")
	}
	if MakeSecret(MakeSecret(NewString("x"))).SecretElement().IsSecret() {
		t.Errorf("MakeSecret wrapped a secret twice")
	}
	if nested.String() != `{"a": [[secret]]}` {
		t.Errorf("String() = %s; secrets must print as [secret]", nested.String())
	}
}

func TestAssetAndArchiveHashes(t *testing.T) {
	a := NewTextAsset("hello")
	if a.Hash != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Errorf("text asset hash %s", a.Hash)
	}
	dir := t.TempDir()
	path := dir + "/f.txt"
	writeFile(t, path, "hello")
	pa, err := NewPathAsset(path)
	if err != nil || pa.Hash != a.Hash || !pa.Equal(a) {
		t.Errorf("path asset %v, %v: want the same hash as the text", pa, err)
	}
	ar1, _ := NewAssetArchive(map[string]Value{"x": NewAsset(a)})
	ar2, _ := NewAssetArchive(map[string]Value{"x": NewAsset(NewTextAsset("other"))})
	ar3, _ := NewAssetArchive(map[string]Value{"y": NewAsset(a)})
	if ar1.Hash == ar2.Hash || ar1.Hash == ar3.Hash {
		t.Errorf("archive hashes do not change with contents or names")
	}
	d1, err := NewPathArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, "changed")
	d2, _ := NewPathArchive(dir)
	if d1.Hash == d2.Hash {
		t.Errorf("a directory archive's hash did not change with a file")
	}
	if _, err := NewAssetArchive(map[string]Value{"bad": NewString("x")}); err == nil {
		t.Errorf("an archive member that is a string was accepted")
	}
}
