package display

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// shapesSchema is the schema of e2e/tflang's test provider's
// shapes_thing, as internal/provider/tfplugin translates it.
func shapesSchema() map[string]schema.Property {
	str := schema.Type{Kind: schema.TypeString}
	num := schema.Type{Kind: schema.TypeNumber}
	obj := func(props map[string]schema.Property) schema.Type {
		return schema.Type{Kind: schema.TypeObject, Properties: props}
	}
	attr := func(t schema.Type) schema.Property { return schema.Property{Type: t} }
	inner := obj(map[string]schema.Property{"n": attr(str)})
	return map[string]schema.Property{
		"id":     attr(str),
		"tags":   attr(schema.Type{Kind: schema.TypeArray, Elem: &str, Set: true}),
		"zones":  attr(schema.Type{Kind: schema.TypeArray, Elem: &str, Set: true}),
		"labels": attr(schema.Type{Kind: schema.TypeMap, Elem: &str}),
		"pair":   attr(obj(map[string]schema.Property{"a": attr(str), "b": attr(num)})),
		"nested": attr(obj(map[string]schema.Property{"x": attr(str), "y": attr(schema.Type{Kind: schema.TypeArray, Elem: &str})})),
		"rule": {Block: true, Type: schema.Type{Kind: schema.TypeArray, Set: true,
			Elem: ptrType(obj(map[string]schema.Property{"port": attr(num), "proto": attr(str)}))}},
		"disk": {Block: true, Type: schema.Type{Kind: schema.TypeArray, Elem: ptrType(obj(map[string]schema.Property{
			"size": attr(num), "inner": {Block: true, Type: schema.Type{Kind: schema.TypeArray, Elem: &inner}}}))}},
		"meta": {Block: true, Type: obj(map[string]schema.Property{"owner": attr(str)})},
	}
}

func ptrType(t schema.Type) *schema.Type { return &t }

// shapesThing is a shapes_thing's recorded attributes.
func shapesThing(tags, zones []any, label, a, y string, ports []any, inner, owner string) resource.Object {
	return resource.MustFromGo(map[string]any{
		"id": "thing-1", "tags": tags, "zones": zones,
		"labels": map[string]any{"k": label, "x y": "z"},
		"pair":   map[string]any{"a": a, "b": 1},
		"nested": map[string]any{"x": "ex", "y": []any{"p", y}},
		"rule":   ports,
		"disk":   []any{map[string]any{"size": 10, "inner": []any{map[string]any{"n": inner}}}, map[string]any{"size": 20, "inner": []any{}}},
		"meta":   map[string]any{"owner": owner},
	}).Object()
}

func rules(ports ...int) []any {
	var out []any
	for _, p := range ports {
		out = append(out, map[string]any{"port": p, "proto": "tcp"})
	}
	return out
}

// TestTerraformSchemaShapes: given the provider's schema, a plan shows
// sets (elements matched by value, unchanged ones counted; tags always
// whole), maps (quoted keys) and objects (bare names), a set of blocks
// (a changed one removed and added), a block nested in a block, a single
// block, and the unchanged blocks of every type counted once, as
// terraform 1.11.4 does: the want is `terraform plan -no-color` of
// e2e/tflang/testdata/shapes's second step. Without the schema the
// display guesses by shape, and gets several of them wrong.
func TestTerraformSchemaShapes(t *testing.T) {
	old := shapesThing([]any{"a", "b", "c"}, []any{"z1", "z2", "z3"}, "v", "one", "q", rules(443, 80), "i1", "me")
	nw := shapesThing([]any{"b", "c", "d"}, []any{"z1", "z3", "z4"}, "w", "two", "r", rules(80, 8443), "i2", "you")
	r := func(o resource.Object) *state.Resource {
		return &state.Resource{URN: urn("shapes:index:shapes_thing", "shapes_thing.t"), Type: "shapes:index:shapes_thing", ID: "thing-1", Inputs: o, Outputs: o}
	}
	want := `  # shapes_thing.t will be updated in-place
  ~ resource "shapes_thing" "t" {
        id     = "thing-1"
      ~ labels = {
          ~ "k"   = "v" -> "w"
            # (1 unchanged element hidden)
        }
      ~ nested = {
          ~ y = [
                "p",
              ~ "q" -> "r",
            ]
            # (1 unchanged attribute hidden)
        }
      ~ pair   = {
          ~ a = "one" -> "two"
            # (1 unchanged attribute hidden)
        }
      ~ tags   = [
          - "a",
            "b",
            "c",
          + "d",
        ]
      ~ zones  = [
          - "z2",
          + "z4",
            # (2 unchanged elements hidden)
        ]

      ~ disk {
            # (1 unchanged attribute hidden)

          ~ inner {
              ~ n = "i1" -> "i2"
            }
        }

      ~ meta {
          ~ owner = "me" -> "you"
        }

      - rule {
          - port  = 443 -> null
          - proto = "tcp" -> null
        }
      + rule {
          + port  = 8443
          + proto = "tcp"
        }

        # (2 unchanged blocks hidden)
    }
`
	for _, withSchema := range []bool{true, false} {
		var out bytes.Buffer
		v := New(Options{Out: &out, Style: StyleTerraform, Scrubber: &Scrubber{}})
		if withSchema {
			TypeSchema(v, program.TypeSchema{Type: "shapes:index:shapes_thing", Properties: shapesSchema()})
			TypeSchema(v, program.TypeSchema{Type: "shapes:index:shapes_thing", Data: true}) // a data source's: not used
		}
		v.Begin(Operation{Verb: "update", Preview: true})
		v.Event(tfEvent(engine.OpUpdate, r(old), r(nw), true))
		v.End(Outcome{Result: &engine.Result{Counts: map[engine.StepOp]int{engine.OpUpdate: 1}}})
		_, got, _ := strings.Cut(out.String(), "actions:\n\n")
		got, _, _ = strings.Cut(got, "\nPlan:")
		if diff := cmp.Diff(want, got); (diff == "") != withSchema {
			t.Errorf("with the schema %v: the plan (-terraform +plinth):\n%s", withSchema, diff)
		}
	}
}
