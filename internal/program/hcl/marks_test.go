package hcl

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestDataSourceSensitivity: a data source's result is sensitive where
// its arguments were, path by path, as terraform marks it; what it
// computes from a sensitive argument is not (the provider's schema says
// what is sensitive), so a root output may use it without sensitive =
// true, and one that uses the sensitive argument read back may not.
func TestDataSourceSensitivity(t *testing.T) {
	const data = `
variable "key" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
data "tls_public_key" "p" {
  private_key_pem = var.key
  tags            = { a = var.key, b = "plain" }
  list            = ["plain", var.key]
}
`
	tests := map[string]struct {
		output string
		want   resource.Value // nil: "Output refers to sensitive values"
	}{
		"computed attribute":      {output: "data.tls_public_key.p.read", want: resource.NewBool(true)},
		"plain key of a map":      {output: `data.tls_public_key.p.tags["b"]`, want: resource.NewString("plain")},
		"plain element of a list": {output: "data.tls_public_key.p.list[0]", want: resource.NewString("plain")},
		"sensitive argument":      {output: "data.tls_public_key.p.private_key_pem"},
		"sensitive map key":       {output: `data.tls_public_key.p.tags["a"]`},
		"map holding a secret":    {output: "data.tls_public_key.p.tags"},
		"sensitive list element":  {output: "data.tls_public_key.p.list[1]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			text := data + "output \"o\" { value = " + tc.output + " }\n"
			mon, err := runConfig(t, map[string]string{"main.tf": text}, program.Options{}, false)
			if tc.want == (resource.Value{}) {
				if err == nil || !containsAll(err.Error(), "Output refers to sensitive values") {
					t.Errorf("error %v, want Output refers to sensitive values", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want.String(), mon.outputs["o"].String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSecretLike: the result of a read is made secret at the paths its
// arguments hold secrets at, and as a whole where the shapes part.
func TestSecretLike(t *testing.T) {
	s, p := resource.NewString("s"), resource.NewString("p")
	secret := resource.MakeSecret
	arr, obj := resource.NewArray, func(kv ...any) resource.Value {
		o := resource.Object{}
		for i := 0; i < len(kv); i += 2 {
			o[kv[i].(string)] = kv[i+1].(resource.Value)
		}
		return resource.NewObject(o)
	}
	tests := map[string]struct{ v, arg, want resource.Value }{
		"plain argument":          {v: s, arg: s, want: s},
		"secret argument":         {v: p, arg: secret(s), want: secret(p)},
		"secret element":          {v: arr(p, p), arg: arr(p, secret(s)), want: arr(p, secret(p))},
		"secret key":              {v: obj("a", p, "b", p, "c", p), arg: obj("a", secret(s), "b", p), want: obj("a", secret(p), "b", p, "c", p)},
		"reordered list":          {v: arr(p), arg: arr(p, secret(s)), want: secret(arr(p))},
		"argument made a string":  {v: p, arg: obj("a", secret(s)), want: secret(p)},
		"already secret":          {v: secret(p), arg: arr(secret(s)), want: secret(p)},
		"secret nested in object": {v: obj("x", arr(p, obj("y", p))), arg: obj("x", arr(p, obj("y", secret(s)))), want: obj("x", arr(p, obj("y", secret(p))))},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want.String(), secretLike(tc.v, tc.arg).String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestResourceSensitivity: a resource's value is sensitive where its
// provider's schema says, nested attributes included, and where its
// arguments were, path by path, as terraform marks it, whatever else the
// engine marked secret (here, as the Terraform adapter does, every
// output whose argument held a secret, and a digest computed from one).
func TestResourceSensitivity(t *testing.T) {
	const resource_ = `
variable "s" {
  type      = string
  sensitive = true
  default   = "s3cret"
}
resource "chk_file" "f" {
  filename = var.s
  tags     = ["plain", var.s]
  subject {
    cn = "c"
    pw = "p"
  }
}
`
	overMarked := func(in resource.Object) resource.Object {
		out := resource.Object{"digest": resource.MakeSecret(resource.NewString("d"))}
		for k, v := range in {
			if v.ContainsSecrets() {
				v = resource.MakeSecret(v)
			}
			out[k] = v
		}
		return out
	}
	tests := map[string]struct {
		output string
		want   resource.Value // zero: "Output refers to sensitive values"
	}{
		"plain element of a list":    {output: "chk_file.f.tags[0]", want: resource.NewString("plain")},
		"computed from a secret":     {output: "chk_file.f.digest", want: resource.NewString("d")},
		"plain nested attribute":     {output: "chk_file.f.subject[0].cn", want: resource.NewString("c")},
		"sensitive argument":         {output: "chk_file.f.filename"},
		"sensitive element":          {output: "chk_file.f.tags[1]"},
		"schema's nested secret":     {output: "chk_file.f.subject[0].pw"},
		"an object holding a secret": {output: "chk_file.f.subject"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			text := resource_ + "output \"o\" { value = " + tc.output + " }\n"
			mon, err := runConfigOn(t, map[string]string{"main.tf": text}, program.Options{}, &fakeMonitor{outputsOf: overMarked})
			if tc.want == (resource.Value{}) {
				if err == nil || !containsAll(err.Error(), "Output refers to sensitive values") {
					t.Errorf("error %v, want Output refers to sensitive values", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want.String(), mon.outputs["o"].String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestForEachValueKeepsMarks: each.value keeps the sensitive marks of
// the for_each map's values, as in terraform, so a resource's argument
// built from each.value.role is sensitive where the map's role was (and
// an export of the state marks it). The keys stay plain.
func TestForEachValueKeepsMarks(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "users" {
  type      = map(object({ role = string }))
  default   = { app = { role = "rw" } }
  sensitive = true
}
locals {
  built = { for k in nonsensitive(toset(keys(var.users))) : k => { role = var.users[k].role, name = k } }
}
module "m" {
  source   = "./m"
  for_each = local.built
  role     = each.value.role
  name     = each.value.name
  key      = each.key
}
output "o" {
  value = { for k, m in module.m : k => m.s }
}
`,
		"m/main.tf": `
variable "role" {}
variable "name" {}
variable "key" {}
output "s" {
  value = [issensitive(var.role), issensitive(var.name), issensitive(var.key)]
}
`,
	}
	mon, err := runConfig(t, files, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := resource.NewObject(resource.Object{"app": resource.NewArray(
		resource.NewBool(true), resource.NewBool(false), resource.NewBool(false))})
	if diff := cmp.Diff(want.String(), mon.outputs["o"].String()); diff != "" {
		t.Errorf("issensitive of role, name and key in each instance (-terraform +plinth):\n%s", diff)
	}
}
