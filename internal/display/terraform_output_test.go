package display

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestTerraformOutputChanges: a preview's "Changes to Outputs:" are
// written as terraform 1.11.4's plan writes them (each want was printed
// by terraform plan for the same change): nested objects with bare keys
// (quoted when not a name) and their unchanged attributes hidden at every
// level, lists one element a line matched by their longest common
// subsequence, empty collections on one line, a string that has or gets
// several lines as a heredoc diffed line by line, and, when only outputs
// change, terraform's line saying so.
func TestTerraformOutputChanges(t *testing.T) {
	v := resource.MustFromGo
	cases := map[string]struct {
		prior, now resource.Object
		want       string
	}{
		"created nested": {
			now: resource.Object{
				"deep":  v(map[string]any{"a": map[string]any{"b": map[string]any{"c": 1, "d": 2}, "e": 3}}),
				"empty": v(map[string]any{"t": map[string]any{}, "l": []any{}}),
				"pets":  v([]any{resource.Unknown()}),
				"lm":    v([]any{map[string]any{"name": "a", "tags": map[string]any{"k": "v"}}, map[string]any{"name": "b", "tags": map[string]any{}}}),
			},
			want: `  + deep  = {
      + a = {
          + b = {
              + c = 1
              + d = 2
            }
          + e = 3
        }
    }
  + empty = {
      + l = []
      + t = {}
    }
  + lm    = [
      + {
          + name = "a"
          + tags = {
              + k = "v"
            }
        },
      + {
          + name = "b"
          + tags = {}
        },
    ]
  + pets  = [
      + (known after apply),
    ]

You can apply this plan to save these new output values to the Plinth
state, without changing any real infrastructure.
`},
		"one line ending in a line break": {
			now: resource.Object{"key": resource.NewString("ssh-ed25519 AAAA\n")},
			want: `  + key = <<-EOT
        ssh-ed25519 AAAA
    EOT

You can apply this plan to save these new output values to the Plinth
state, without changing any real infrastructure.
`},
		"null attributes go with their object": {
			prior: resource.Object{"gone": v(map[string]any{"cn": "y", "ou": nil})},
			now:   resource.Object{"subjects": v([]any{map[string]any{"cn": "x", "ou": nil}})},
			want: `  - gone     = {
      - cn = "y"
      - ou = null
    } -> null
  + subjects = [
      + {
          + cn = "x"
          + ou = null
        },
    ]

You can apply this plan to save these new output values to the Plinth
state, without changing any real infrastructure.
`},
		"changed": {
			prior: resource.Object{
				"deep":   v(map[string]any{"a": map[string]any{"b": map[string]any{"c": 1, "d": 2}, "e": 3}}),
				"multi":  resource.NewString("line1\nline2\n"),
				"nested": v(map[string]any{"a": []any{1, 2, 3}, "b": map[string]any{"c": "d", "e": []any{"f", "g"}}, "l": []any{"x"}}),
				"s":      v([]any{"a", "b"}),
				"s2m":    resource.NewString("one"),
			},
			now: resource.Object{
				"deep":   v(map[string]any{"a": map[string]any{"b": map[string]any{"c": 1, "d": 5}, "e": 3}}),
				"gone2":  v([]any{"a"}),
				"multi":  resource.NewString("line1\nline3\n"),
				"nested": v(map[string]any{"a": []any{1, 5, 3, 4}, "b": map[string]any{"c": "D", "e": []any{"f", "g"}, "x y": 1}, "l": []any{"x"}}),
				"s2m":    resource.NewString("one\ntwo"),
			},
			want: `  ~ deep   = {
      ~ a = {
          ~ b = {
              ~ d = 2 -> 5
                # (1 unchanged attribute hidden)
            }
            # (1 unchanged attribute hidden)
        }
    }
  + gone2  = [
      + "a",
    ]
  ~ multi  = <<-EOT
        line1
      - line2
      + line3
    EOT
  ~ nested = {
      ~ a = [
            1,
          - 2,
          + 5,
            3,
          + 4,
        ]
      ~ b = {
          ~ c     = "d" -> "D"
          + "x y" = 1
            # (1 unchanged attribute hidden)
        }
        # (1 unchanged attribute hidden)
    }
  - s      = [
      - "a",
      - "b",
    ] -> null
  ~ s2m    = <<-EOT
        one
      + two
    EOT

You can apply this plan to save these new output values to the Plinth
state, without changing any real infrastructure.
`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			view := New(Options{Out: &out, Style: StyleTerraform, Scrubber: &Scrubber{}})
			view.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
			view.End(Outcome{Result: &engine.Result{Outputs: c.now}, DiffOutputs: true, PriorOutputs: c.prior})
			_, got, _ := strings.Cut(out.String(), "Changes to Outputs:\n")
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-terraform +plinth):\n%s", diff)
			}
		})
	}
}

// TestTerraformOutputTypes: after an update an output whose type makes
// it a list, set or map is wrapped, at every level, as terraform 1.11.4
// writes it (each want was printed by terraform apply for an output of
// the same type and value); a tuple or an object is not.
func TestTerraformOutputTypes(t *testing.T) {
	v := resource.MustFromGo
	cases := map[string]struct {
		typ  string
		v    resource.Value
		want string
	}{
		"el": {`["list","string"]`, v([]any{}), "el = tolist([])"},
		"em": {`["map","string"]`, v(map[string]any{}), "em = tomap({})"},
		"lm": {`["list",["map","string"]]`, v([]any{map[string]any{"a": "1"}, map[string]any{}}),
			"lm = tolist([\n  tomap({\n    \"a\" = \"1\"\n  }),\n  tomap({}),\n])"},
		"ms": {`["object",{"a":["set","string"]}]`, v(map[string]any{"a": []any{"q"}}),
			"ms = {\n  \"a\" = toset([\n    \"q\",\n  ])\n}"},
		"ol": {`["object",{"l":["list","string"],"s":["set","number"]}]`, v(map[string]any{"l": []any{"x"}, "s": []any{1, 2}}),
			"ol = {\n  \"l\" = tolist([\n    \"x\",\n  ])\n  \"s\" = toset([\n    1,\n    2,\n  ])\n}"},
		"tu": {`["tuple",["string","number"]]`, v([]any{"a", 1}), "tu = [\n  \"a\",\n  1,\n]"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := strings.Join(tfOutputLines(name, c.v, []byte(c.typ)), "\n")
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-terraform +plinth):\n%s", diff)
			}
		})
	}
}

// TestTerraformJSONStrings: a string holding a JSON object or array is
// shown as terraform 1.11.4 shows it, jsonencode(...) of what it
// encodes, nested (the wants are terraform plan's for a local_file whose
// content is jsonencode({ a = 1, b = ["x", "y"], c = { d = "e" } }),
// created, then with a = 2, which forces replacement).
func TestTerraformJSONStrings(t *testing.T) {
	const one, two = `{"a":1,"b":["x","y"],"c":{"d":"e"}}`, `{"a":2,"b":["x","y"],"c":{"d":"e"}}`
	old := tfRes("local_file", "local_file.j", "b2b9", obj("content", one, "filename", "./j.json"))
	old.Outputs = old.Inputs.Copy()
	old.Outputs["id"] = resource.NewString("b2b9")
	nw := tfRes("local_file", "local_file.j", engine.UnknownID, obj("content", two, "filename", "./j.json"))
	replace := tfEvent(engine.OpReplace, old, nw, true)
	replace.ReplaceKeys = []string{"content"}
	cases := map[string]struct {
		event engine.Event
		want  string
	}{
		"created": {tfEvent(engine.OpCreate, nil, tfRes("local_file", "local_file.j", "", obj("content", one, "filename", "./j.json")), true), `  # local_file.j will be created
  + resource "local_file" "j" {
      + content  = jsonencode(
            {
              + a = 1
              + b = [
                  + "x",
                  + "y",
                ]
              + c = {
                  + d = "e"
                }
            }
        )
      + filename = "./j.json"
      + id       = (known after apply)
    }`},
		"replaced": {replace, `  # local_file.j must be replaced
-/+ resource "local_file" "j" {
      ~ content  = jsonencode(
          ~ {
              ~ a = 1 -> 2
                # (2 unchanged attributes hidden)
            } # forces replacement
        )
      ~ id       = "b2b9" -> (known after apply)
        # (1 unchanged attribute hidden)
    }`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, lines := tfBlock(painter{}, c.event)
			if diff := cmp.Diff(c.want, strings.Join(lines, "\n")); diff != "" {
				t.Errorf("(-terraform +plinth):\n%s", diff)
			}
		})
	}
}
