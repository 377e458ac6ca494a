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
		"nested": attr(schema.Type{Kind: schema.TypeObject, Nested: true, Properties: map[string]schema.Property{
			"x": attr(str), "y": attr(schema.Type{Kind: schema.TypeArray, Elem: &str})}}),
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

// TestTerraformCreateAndDestroyHideEmptyStrings: terraform takes an
// empty string for null, so what is created or destroyed does not show
// one but counts it among the unchanged attributes (names stay aligned
// over it), and a destroyed resource's write-only attribute is shown
// going to null. Each want is terraform 1.11.4's plan of the same
// resource (random_pet with prefix = ""; a destroyed ECDSA
// tls_private_key, whose fingerprints and OpenSSH keys are empty, and a
// tls_self_signed_cert's private_key_pem_wo).
func TestTerraformCreateAndDestroyHideEmptyStrings(t *testing.T) {
	pet := tfRes("random_pet", "random_pet.p", "", obj("length", 2, "separator", "-", "prefix", ""))
	key := tfRes("tls_private_key", "tls_private_key.k", "e5eb", obj("algorithm", "ECDSA", "ecdsa_curve", "P224", "id", "e5eb",
		"public_key_fingerprint_md5", "", "public_key_fingerprint_sha256", "", "public_key_openssh", "", "rsa_bits", 2048))
	key.Outputs["private_key_openssh"] = resource.MakeSecret(resource.NewString(""))
	key.Outputs["private_key_pem"] = resource.MakeSecret(resource.NewString("k"))
	cert := tfRes("tls_self_signed_cert", "tls_self_signed_cert.c", "6050", obj("id", "6050", "is_ca_certificate", false))
	cert.Outputs["private_key_pem_wo"] = resource.Null()
	cases := map[string]struct {
		event engine.Event
		want  string
	}{
		"created": {tfEvent(engine.OpCreate, nil, pet, true), `  # random_pet.p will be created
  + resource "random_pet" "p" {
      + id        = (known after apply)
      + length    = 2
      + separator = "-"
        # (1 unchanged attribute hidden)
    }`},
		"destroyed": {tfEvent(engine.OpDelete, key, nil, true), `  # tls_private_key.k will be destroyed
  - resource "tls_private_key" "k" {
      - algorithm                     = "ECDSA" -> null
      - ecdsa_curve                   = "P224" -> null
      - id                            = "e5eb" -> null
      - private_key_pem               = (sensitive value) -> null
      - rsa_bits                      = 2048 -> null
        # (4 unchanged attributes hidden)
    }`},
		"write-only destroyed": {tfEvent(engine.OpDelete, cert, nil, true), `  # tls_self_signed_cert.c will be destroyed
  - resource "tls_self_signed_cert" "c" {
      - id                 = "6050" -> null
      - is_ca_certificate  = false -> null
      - private_key_pem_wo = (write-only attribute) -> null
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

// TestTerraformWriteOnlyNamesAlign: in an update or replacement the
// attribute names are aligned over the write-only ones too, which
// terraform counts among the hidden attributes ('cert_request_pem   ='
// beside a hidden private_key_pem_wo, as terraform 1.11 printed it
// replacing a tls_cert_request); plinth aligned them over the others.
func TestTerraformWriteOnlyNamesAlign(t *testing.T) {
	old := tfRes("tls_cert_request", "tls_cert_request.r", "c8", obj("id", "c8", "key_algorithm", "ED25519", "cert_request_pem", "pem"))
	old.Outputs["private_key_pem_wo"] = resource.Null()
	nu := tfRes("tls_cert_request", "tls_cert_request.r", "c8", obj("id", "c8", "key_algorithm", "ED25519", "cert_request_pem", "new"))
	nu.Outputs["private_key_pem_wo"] = resource.Null()
	want := `  # tls_cert_request.r will be updated in-place
  ~ resource "tls_cert_request" "r" {
      ~ cert_request_pem   = "pem" -> "new"
        id                 = "c8"
        # (2 unchanged attributes hidden)
    }`
	_, lines := tfBlock(painter{}, tfEvent(engine.OpUpdate, old, nu, true))
	if diff := cmp.Diff(want, strings.Join(lines, "\n")); diff != "" {
		t.Errorf("(-terraform +plinth):\n%s", diff)
	}
}
