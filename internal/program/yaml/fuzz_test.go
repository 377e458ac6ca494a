package yaml

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// FuzzParse feeds arbitrary bytes to the loader: it must never panic, and
// a program it accepts must run (against a fake) without panicking.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/plinth.yaml")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"", "name: x", "a: &a [*a, *a]", "name: x\nvariables:\n  v: ${v}",
		"name: x\nresources:\n  r: {type: random_pet, properties: {a: ${r.b}}}",
		"name: x\nvariables:\n  v: {fn::select: [0, [1]]}\noutputs:\n  o: ${v}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("plinth.yaml", "/nonexistent/project", data)
		if err != nil {
			if _, ok := err.(program.Diagnostics); !ok {
				t.Fatalf("Parse returned %T, not Diagnostics: %v", err, err)
			}
			return
		}
		if touchesFiles(p) {
			return // reading arbitrary paths or URLs is not the loader's business
		}
		ev, err := p.Program(nil, program.Options{})
		if err != nil {
			return
		}
		_ = ev.Run(context.Background(), &fakeMonitor{invokeF: func(engine.InvokeRequest) (resource.Object, error) {
			return resource.Object{}, nil
		}})
	})
}

// touchesFiles reports whether running the program would read files or
// fetch URLs.
func touchesFiles(p *Project) bool {
	found := false
	var visit func(e *expr)
	visit = func(e *expr) {
		if e == nil || found {
			return
		}
		if e.kind == exprCall && (strings.Contains(strings.ToLower(e.fn()), "file") || strings.HasPrefix(e.fn(), "remote")) {
			found = true
		}
		for _, el := range e.elems() {
			visit(el)
		}
		for _, v := range e.vals() {
			visit(v)
		}
		visit(e.arg())
		if e.call() != nil {
			visit(e.call().args)
		}
	}
	for _, n := range p.nodes {
		n.exprs(visit)
	}
	return found
}

// FuzzInterpolation checks the ${...} parser on arbitrary strings: no
// panic, and text without "${" comes back unchanged.
func FuzzInterpolation(f *testing.F) {
	for _, s := range []string{"${a.b[0][\"k}\"]}", "$${x}", "x${", "${a:b.c}", "$$", "${r[\"\\\"\"]}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts, err := parseInterpolation(s)
		if err != nil || strings.Contains(s, "${") {
			return
		}
		if len(parts) != 1 || parts[0].ref != nil || parts[0].text != s {
			t.Fatalf("parseInterpolation(%q) = %+v, want the text unchanged", s, parts)
		}
	})
}

// jsonValue generates values that have a JSON form.
func jsonValue(depth int) *rapid.Generator[resource.Value] {
	return rapid.Custom(func(t *rapid.T) resource.Value {
		kinds := 4
		if depth > 0 {
			kinds = 6
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return resource.Null()
		case 1:
			return resource.NewBool(rapid.Bool().Draw(t, "bool"))
		case 2:
			return resource.NewNumber(rapid.Float64().Draw(t, "number"))
		case 3:
			return resource.NewString(rapid.String().Draw(t, "string"))
		case 4:
			return resource.NewArray(rapid.SliceOfN(jsonValue(depth-1), 0, 4).Draw(t, "array")...)
		}
		return resource.NewObject(rapid.MapOfN(rapid.String(), jsonValue(depth-1), 0, 4).Draw(t, "object"))
	})
}

// TestJSONRoundTrip: fn::toJSON then fn::fromJSON gives the value back,
// every digit of every number included.
func TestJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(3).Draw(t, "value")
		g, err := jsonData(v)
		if err != nil {
			t.Fatal(err)
		}
		r := &run{Evaluator: &Evaluator{p: &Project{}}}
		s, err := fnToJSON(r, &expr{more: &compound{fn: "toJSON"}}, v)
		if err != nil {
			t.Fatalf("toJSON(%v): %v (data %v)", v, err, g)
		}
		back, err := parseJSON(s.Str())
		if err != nil {
			t.Fatalf("fromJSON(%s): %v", s.Str(), err)
		}
		if !back.Equal(v) {
			t.Fatalf("round trip of %v gave %v (via %s)", v, back, s.Str())
		}
	})
}

// TestConfigTextRoundTrip: a config value's text form parses back to it.
func TestConfigTextRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.Int64().Draw(t, "int")
		v, err := ConfigInteger.Parse(resource.NewNumber(float64(i)).NumberLiteral())
		if err != nil {
			// A float64 cannot hold every int64; the text is then not an integer literal.
			return
		}
		if !v.Equal(resource.NewNumber(float64(i))) {
			t.Fatalf("integer %d parsed back as %v", i, v)
		}
		f := rapid.Float64().Draw(t, "float")
		w, err := ConfigNumber.Parse(resource.NewNumber(f).NumberLiteral())
		if err != nil || !w.Equal(resource.NewNumber(f)) {
			t.Fatalf("number %v parsed back as %v, %v", f, w, err)
		}
	})
}
