package yaml

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// parseBoth parses data whole and in pieces of about target bytes, and
// fails t if the two differ. It returns whether the pieces were used.
func parseBoth(t interface {
	Helper()
	Fatalf(string, ...any)
}, data []byte, target int) bool {
	t.Helper()
	wantP, wantErr := parseWhole("plinth.yaml", "/project", data)
	gotP, gotErr, chunked := parseChunked("plinth.yaml", "/project", data, target)
	if !chunked {
		return false
	}
	if diff := cmp.Diff(errText(wantErr), errText(gotErr)); diff != "" {
		t.Fatalf("errors differ (-whole +pieces):\n%s\nprogram:\n%s", diff, data)
	}
	if diff := cmp.Diff(wantP, gotP, cmp.Exporter(func(reflect.Type) bool { return true }), valueCmp); diff != "" {
		t.Fatalf("projects differ (-whole +pieces):\n%s\nprogram:\n%s", diff, data)
	}
	return true
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestParseChunkedMatchesWhole: hand-written programs parse in pieces to
// exactly what the whole document parses to (diagnostics with their
// lines included), or, where a cut would be unsafe, are not cut at all.
func TestParseChunkedMatchesWhole(t *testing.T) {
	for name, c := range map[string]struct {
		program string
		chunked bool // whether the pieces must be used
	}{
		"plain": {chunked: true, program: `name: p
resources:
  a:
    type: plinth:random:Pet
    properties: { length: 2, prefix: a }
  b:
    type: plinth:random:Pet
    properties:
      prefix: ${a.id}
outputs:
  b: ${b.id}
`},
		"comments, blank lines, block scalars, multi-line plain": {chunked: true, program: `name: p
# a comment
resources: # the pets
  # before the first
  a:
    type: plinth:random:Pet

# at the margin
    properties:
      prefix: |
        text
         b:
        more

      separator: >-
        folded
        c: not a key
  "b c":
    type: plinth:random:Pet
    properties:
      prefix: one
        two
  'd': {type: plinth:random:Pet}
  e:
    type: plinth:random:Pet
    properties: { prefix: "#not a comment" } # a comment
variables:
  v: ${e.id}
`},
		"errors in several entries": {chunked: true, program: `name: p
resources:
  a:
    type: not a type
  b:
    typo: 1
  c: 5
  d:
    type: plinth:random:Pet
    properties: { prefix: "${nowhere.id}" }
  "":
    type: plinth:random:Pet
`},
		"duplicates across pieces": {chunked: true, program: `name: p
resources:
  a:
    type: plinth:random:Pet
  b:
    type: plinth:random:Pet
  a:
    type: bad type
    typo: 2
  b: 7
`},
		"resources set twice": {chunked: true, program: `name: p
resources:
  a:
    type: plinth:random:Pet
outputs:
  o: 1
resources:
  b:
    type: plinth:random:Pet
`},
		"indented four":                      {chunked: true, program: "name: p\nresources:\n    a:\n        type: plinth:random:Pet\n    b:\n        type: plinth:random:Pet\n"},
		"last line without newline":          {chunked: true, program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n  b: {type: plinth:random:Pet}"},
		"syntax error in a piece":            {program: "name: p\nresources:\n  a:\n    type: [\n  b:\n    type: plinth:random:Pet\n"},
		"quoted scalar across a cut":         {program: "name: p\nresources:\n  a:\n    type: \"plinth:random:Pet\n  b: x\"\n"},
		"flow mapping across a cut":          {program: "name: p\nresources:\n  a: {type: plinth:random:Pet,\n  b: x}\n"},
		"alias into another piece":           {program: "name: p\nresources:\n  a: &pet\n    type: plinth:random:Pet\n  b: *pet\n"},
		"alias within a piece":               {program: "name: p\nresources:\n  a:\n    type: &t plinth:random:Pet\n    name: *t\n  b:\n    type: plinth:random:Pet\n"},
		"anchor read by outputs":             {program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n    properties: &props {prefix: x}\noutputs:\n  o: *props\n"},
		"merge key":                          {program: "name: p\nvariables:\n  base: &b {type: plinth:random:Pet}\nresources:\n  a:\n    <<: *b\n"},
		"tab in indentation":                 {program: "name: p\nresources:\n  a:\n\ttype: plinth:random:Pet\n"},
		"odd indentation":                    {program: "name: p\nresources:\n    a:\n        type: plinth:random:Pet\n  b:\n    type: plinth:random:Pet\n"},
		"a sequence":                         {program: "name: p\nresources:\n  - a\n  - b\n"},
		"explicit key":                       {program: "name: p\nresources:\n  ? a\n  : {type: plinth:random:Pet}\n"},
		"document marker":                    {program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n---\nname: q\n"},
		"resources in a quoted description":  {program: "name: p\ndescription: \"x\nresources:\n  a:\n    type: plinth:random:Pet\n\"\n"},
		"resources with a value on its line": {program: "name: p\nresources: {a: {type: plinth:random:Pet}}\n"},
		"empty resources":                    {program: "name: p\nresources:\noutputs:\n  o: 1\n"},
		"carriage returns":                   {program: "name: p\r\nresources:\r\n  a:\r\n    type: plinth:random:Pet\r\n"},
		"no name":                            {chunked: true, program: "resources:\n  a:\n    type: plinth:random:Pet\n"},
		"a line separator in a string":       {program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n    properties: { prefix: \"x\u2028y\" }\n  b:\n    type: bad type\noutputs:\n  o: ${nowhere}\n"},
		"a next-line in a comment":           {program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet # x\u0085y\n  b:\n    type: bad type\n"},
		"a UTF-16 byte-order mark":           {program: "\xff\xfename: p\nresources:\n  a:\n    type: plinth:random:Pet\n"},
		// yaml.v3 refuses a block nesting 10,000 deep; the whole document
		// has one level more than a piece, so such lines are never cut.
		"nesting at yaml.v3's limit": {program: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n    properties:\n      x: \n       " + strings.Repeat("- ", 9997) + "1\n  b:\n    type: plinth:random:Pet\n"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, target := range []int{1, 40, 1 << 20} {
				if got := parseBoth(t, []byte(c.program), target); c.chunked && !got {
					t.Fatalf("target %d: the program was parsed whole, want pieces", target)
				}
			}
		})
	}
}

// TestParseChunkedMatchesWholeOnTestdata: every program of the
// package's scenarios parses in pieces of any size as it does whole (all
// but err-yaml, which is not valid YAML, are cut).
func TestParseChunkedMatchesWholeOnTestdata(t *testing.T) {
	files, err := filepath.Glob("testdata/*/plinth.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs under testdata: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []int{1, 100, 1 << 20} {
			if !parseBoth(t, data, target) && !strings.Contains(f, "err-yaml") {
				t.Errorf("%s was parsed whole, want pieces", f)
			}
		}
	}
}

// TestCutResources: the pieces start at the entries' key lines, hold
// every line of the block between them, and keep the file's line numbers.
func TestCutResources(t *testing.T) {
	data := []byte("name: p\nresources:\n  # c\n  a:\n    type: x\n\n  b: {type: x}\n  c:\n    type: x\noutputs: {}\n")
	c, ok := cutResources(data, 20)
	if !ok {
		t.Fatal("not cut")
	}
	type got struct {
		Data      string
		FirstLine int
		KeyLines  []int
	}
	var pieces []got
	for _, p := range c.pieces {
		pieces = append(pieces, got{string(p.data), p.firstLine, p.keyLines})
	}
	want := []got{
		{"  # c\n  a:\n    type: x\n\n", 3, []int{4}},
		{"  b: {type: x}\n  c:\n    type: x\n", 7, []int{7, 8}},
	}
	if diff := cmp.Diff(want, pieces); diff != "" {
		t.Errorf("pieces (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("name: p\nresources:\n\n\n\n\n\n\n\noutputs: {}\n", string(c.rest(data))); diff != "" {
		t.Errorf("rest (-want +got):\n%s", diff)
	}
}

// TestMayHoldAnchors: what could be an anchor or an alias is found
// before any piece is parsed; a * or & inside a word is not.
func TestMayHoldAnchors(t *testing.T) {
	for text, want := range map[string]bool{
		"  a: &x {type: t}\n":             true,
		"  b: *x\n":                       true,
		"  c: [*x]\n":                     true,
		"*x: 1\n":                         true,
		"  d: {prefix: arn:aws:s3:::b/*}": false,
		"  e: a&b\n":                      false,
		"  f: \"* \"\n":                   false,
		"  g: *":                          false,
		"  h: mkdir x && cat y\n":         false,
		"  - &x 1\n":                      true,
		"  i: {a: 1, b: *x}\n":            true,
	} {
		if got := mayHoldAnchors([]byte(text)); got != want {
			t.Errorf("mayHoldAnchors(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestParseChunkedProperty: generated programs of many shapes, with
// errors and duplicate keys, parse in pieces of any size to exactly what
// the whole document parses to; those without the traps a cut must
// refuse are always parsed in pieces.
func TestParseChunkedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		indent := strings.Repeat(" ", rapid.IntRange(1, 4).Draw(t, "indent"))
		n := rapid.IntRange(1, 12).Draw(t, "resources")
		trap := rapid.IntRange(0, 8).Draw(t, "trap") == 0
		var b strings.Builder
		b.WriteString("name: gen\nvariables:\n  v: 1\nresources:\n")
		for i := range n {
			writeResource(t, &b, indent, n, i)
		}
		if trap {
			b.WriteString(rapid.SampledFrom(traps(indent)).Draw(t, "trap text"))
		}
		fmt.Fprintf(&b, "outputs:\n  o: ${r%d.id}\n", rapid.IntRange(0, n).Draw(t, "output ref"))
		target := rapid.IntRange(1, 200).Draw(t, "target")
		if chunked := parseBoth(t, []byte(b.String()), target); !chunked && !trap {
			t.Fatalf("the program was parsed whole, want pieces:\n%s", b.String())
		}
	})
}

// writeResource writes one entry of the resources block in one of many
// shapes, some of them wrong.
func writeResource(t *rapid.T, b *strings.Builder, in string, n, i int) {
	key := fmt.Sprintf("r%d", rapid.IntRange(0, n+n/3).Draw(t, "key")) // some repeat
	typ := rapid.SampledFrom([]string{"plinth:random:Pet", "plinth:random:Pet", "random_pet", "not a type"}).Draw(t, "type")
	ref := fmt.Sprintf("${r%d.id}", rapid.IntRange(0, n).Draw(t, "ref"))
	deeper := in + in
	switch rapid.IntRange(0, 9).Draw(t, "shape") {
	case 0:
		fmt.Fprintf(b, "%s%s: {type: %s, properties: {prefix: %q}}\n", in, key, typ, ref)
	case 1:
		fmt.Fprintf(b, "%s%s:\n%stype: %s\n%sproperties:\n%s%sprefix: |\n%s%s%s  text\n%s%s%s  %s: not a key\n\n", in, key, deeper, typ, deeper, deeper, in, deeper, in, in, deeper, in, in, key)
	case 2:
		fmt.Fprintf(b, "%s%s:\n%stype: %s\n%s# a comment\n# at the margin\n\n%sproperties: { prefix: \"# %s\", length: %d }\n", in, key, deeper, typ, in, deeper, ref, i)
	case 3:
		fmt.Fprintf(b, "%s%s: %d\n", in, key, i)
	case 4:
		fmt.Fprintf(b, "%s%s:\n%stypo: %s\n", in, key, deeper, typ)
	case 5:
		fmt.Fprintf(b, "%s%s:\n%stype: %s\n%soptions:\n%s%sdependsOn: [%q]\n", in, key, deeper, typ, deeper, deeper, in, ref)
	case 6:
		fmt.Fprintf(b, "%s%s:\n%stype: %s\n%sproperties:\n%s%sprefix: plain\n%s%s%s continued\n", in, key, deeper, typ, deeper, deeper, in, deeper, in, in)
	case 7:
		fmt.Fprintf(b, "%s\"%s\":\n%stype: '%s'\n%sname: \"\"\n", in, key, deeper, typ, deeper)
	case 8:
		fmt.Fprintf(b, "%s%s:\n%stype: %s\n%sproperties:\n%s%slist:\n%s%s- 1\n%s%s- ${v}\n%s%s- { a: %q }\n", in, key, deeper, typ, deeper, deeper, in, deeper, in, deeper, in, deeper, in, ref)
	default:
		fmt.Fprintf(b, "%s%s:\n", in, key) // null: a resource without a type
	}
}

// traps are texts a cut must refuse or that fail in a piece; each ends
// with a line break.
func traps(in string) []string {
	return []string{
		in + "q:\n" + in + in + "type: \"plinth:random:Pet\n" + in + "r0: x\"\n",
		in + "f: {type: plinth:random:Pet,\n" + in + "r1: x}\n",
		in + "a: &pet\n" + in + in + "type: plinth:random:Pet\n" + in + "b: *pet\n",
		in + "t:\n\ttype: plinth:random:Pet\n",
		in + "- seq\n",
		in + "? k\n" + in + ": v\n",
		in + "x: [\n",
		in + in + in + "deeper: {type: plinth:random:Pet}\n",
	}
}

// FuzzParseChunked: for any text, parsing it in pieces (when the cut
// accepts it) gives what the whole document gives.
func FuzzParseChunked(f *testing.F) {
	f.Add([]byte("name: p\nresources:\n  a:\n    type: plinth:random:Pet\n  b: {type: plinth:random:Pet}\n"), uint8(1))
	f.Add([]byte("name: p\nresources:\n  a:\n    type: \"x\n  b: y\"\n  c: |\n   t\n  d: 1\noutputs:\n  o: ${a.id}\n"), uint8(8))
	f.Add([]byte("name: p\nresources:\n  a: &x {type: t}\n  b: *x\n  a: [\n"), uint8(3))
	f.Add([]byte("name: p\nresources:\n  a:\n    type: t # \u0085\u2028\u2029\r\n  b:\n    type: t\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, target uint8) {
		parseBoth(t, data, int(target)+1)
	})
}
