package display

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestTerraformNestedChanges: a changed map, list, object and nested
// block is written nested as terraform 1.11.4 writes it; each want is
// from `terraform plan -no-color` on testdata of e2e/tflang/nested_diff
// (ids shortened).
func TestTerraformNestedChanges(t *testing.T) {
	cases := map[string]struct {
		event func() engine.Event
		want  string
	}{
		"map forcing replacement": {func() engine.Event {
			old := tfRes("random_pet", "random_pet.p", "sole", obj("keepers", map[string]any{"a": "1", "b": "2", "c": "3"}, "length", 2, "separator", "-"))
			old.Outputs = old.Inputs.Copy()
			old.Outputs["id"] = resource.NewString("sole")
			nw := tfRes("random_pet", "random_pet.p", engine.UnknownID, obj("keepers", map[string]any{"a": "1", "b": "x", "d": "4"}, "length", 2, "separator", "-"))
			e := tfEvent(engine.OpReplace, old, nw, true)
			e.ReplaceKeys = []string{"keepers"}
			return e
		}, `  # random_pet.p must be replaced
-/+ resource "random_pet" "p" {
      ~ id        = "sole" -> (known after apply)
      ~ keepers   = { # forces replacement
          ~ "b" = "2" -> "x"
          - "c" = "3" -> null
          + "d" = "4"
            # (1 unchanged element hidden)
        }
        # (2 unchanged attributes hidden)
    }`},
		"sensitive values, as terraform 1.11.4 shows them": {func() engine.Event {
			// random_password replaced: the old result is sensitive, the
			// new unknown; a sensitive attribute that is null is not
			// counted among the unchanged ones
			old := tfRes("random_password", "random_password.pw", "none", obj("length", 12, "special", true))
			old.Outputs = obj("length", 12, "special", true, "id", "none")
			old.Outputs["result"] = resource.MakeSecret(resource.NewString("s3cret"))
			old.Outputs["bcrypt_hash"] = resource.MakeSecret(resource.NewString("h"))
			old.Outputs["override_special"] = resource.MakeSecret(resource.Null())
			nw := tfRes("random_password", "random_password.pw", engine.UnknownID, obj("length", 14, "special", true))
			nw.Outputs = obj("length", 14, "special", true)
			nw.Outputs["result"] = resource.Unknown()
			nw.Outputs["bcrypt_hash"] = resource.Unknown()
			nw.Outputs["id"] = resource.Unknown()
			e := tfEvent(engine.OpReplace, old, nw, true)
			e.ReplaceKeys = []string{"length"}
			return e
		}, `  # random_password.pw must be replaced
-/+ resource "random_password" "pw" {
      ~ bcrypt_hash = (sensitive value)
      ~ id          = "none" -> (known after apply)
      ~ length      = 12 -> 14 # forces replacement
      ~ result      = (sensitive value)
        # (1 unchanged attribute hidden)
    }`},
		"a value that stops being sensitive": {func() engine.Event {
			// terraform_data.s's input was random_password.pw.result
			old := tfRes("terraform_data", "terraform_data.s", "5e1", obj("id", "5e1"))
			old.Inputs["input"] = resource.MakeSecret(resource.NewString("s3cret"))
			nw := tfRes("terraform_data", "terraform_data.s", "5e1", obj("id", "5e1", "input", "plain"))
			return tfEvent(engine.OpUpdate, old, nw, true)
		}, `  # terraform_data.s will be updated in-place
  ~ resource "terraform_data" "s" {
        id    = "5e1"
      # Warning: this attribute value will no longer be marked as sensitive
      # after applying this change.
      ~ input = (sensitive value)
    }`},
		"a value that becomes sensitive, forcing replacement": {func() engine.Event {
			old := tfRes("local_file", "local_file.now_secret", "0a1", obj("content", "plain", "filename", "./now_secret.txt"))
			old.Outputs["id"] = resource.NewString("0a1")
			nw := tfRes("local_file", "local_file.now_secret", engine.UnknownID, obj("filename", "./now_secret.txt"))
			nw.Inputs["content"] = resource.MakeSecret(resource.NewString("s3cret"))
			nw.Outputs["id"] = resource.Unknown()
			e := tfEvent(engine.OpReplace, old, nw, true)
			e.ReplaceKeys = []string{"content"}
			return e
		}, `  # local_file.now_secret must be replaced
-/+ resource "local_file" "now_secret" {
      # Warning: this attribute value will be marked as sensitive and will not
      # display in UI output after applying this change.
      ~ content  = (sensitive value) # forces replacement
      ~ id       = "0a1" -> (known after apply)
        # (1 unchanged attribute hidden)
    }`},
		"a sensitive value added or removed has no warning": {func() engine.Event {
			old := tfRes("terraform_data", "terraform_data.s", "5e1", obj("id", "5e1"))
			old.Inputs["input"] = resource.MakeSecret(resource.NewString("s3cret"))
			nw := tfRes("terraform_data", "terraform_data.s", "5e1", obj("id", "5e1"))
			nw.Inputs["output"] = resource.MakeSecret(resource.NewString("t"))
			return tfEvent(engine.OpUpdate, old, nw, true)
		}, `  # terraform_data.s will be updated in-place
  ~ resource "terraform_data" "s" {
        id     = "5e1"
      - input  = (sensitive value) -> null
      + output = (sensitive value)
    }`},
		"object of a list and a map": {func() engine.Event {
			in := func(first, b string) resource.Object {
				return obj("input", map[string]any{"names": []any{first, "y", "z"}, "tags": map[string]any{"a": "1", "b": b, "c": "3"}, "n": 1})
			}
			old := tfRes("terraform_data", "terraform_data.d", "ccd3", in("x", "2"))
			old.Outputs = in("x", "2")
			old.Outputs["id"] = resource.NewString("ccd3")
			nw := tfRes("terraform_data", "terraform_data.d", "ccd3", in("w", "two"))
			return tfEvent(engine.OpUpdate, old, nw, true)
		}, `  # terraform_data.d will be updated in-place
  ~ resource "terraform_data" "d" {
        id    = "ccd3"
      ~ input = {
          ~ names = [
              ~ "x" -> "w",
                "y",
                # (1 unchanged element hidden)
            ]
          ~ tags  = {
                a = "1"
              ~ b = "2" -> "two"
                c = "3"
            }
            # (1 unchanged attribute hidden)
        }
    }`},
		"list and nested block forcing replacement": {func() engine.Event {
			cert := func(use, cn string) resource.Object {
				return obj("allowed_uses", []any{"key_encipherment", use}, "private_key_pem_wo", nil, "validity_period_hours", 24,
					"subject", []any{map[string]any{"common_name": cn, "organization": "Plinth", "country": nil}})
			}
			old := tfRes("tls_self_signed_cert", "tls_self_signed_cert.c", "236", cert("digital_signature", "a.example.com"))
			old.Outputs["id"] = resource.NewString("236")
			nw := tfRes("tls_self_signed_cert", "tls_self_signed_cert.c", engine.UnknownID, cert("server_auth", "c.example.com"))
			e := tfEvent(engine.OpReplace, old, nw, true)
			e.Diff = resource.DetailedDiff{"allowed_uses[1]": {Kind: resource.DiffUpdate, InputDiff: true, Replace: true},
				"subject[0].common_name": {Kind: resource.DiffUpdate, InputDiff: true, Replace: true}}
			return e
		}, `  # tls_self_signed_cert.c must be replaced
-/+ resource "tls_self_signed_cert" "c" {
      ~ allowed_uses          = [ # forces replacement
            "key_encipherment",
          ~ "digital_signature" -> "server_auth",
        ]
      ~ id                    = "236" -> (known after apply)
        # (2 unchanged attributes hidden)

      ~ subject { # forces replacement
          ~ common_name  = "a.example.com" -> "c.example.com" # forces replacement
            # (1 unchanged attribute hidden)
        }
    }`},
		"list of different length": {func() engine.Event {
			old := tfRes("terraform_data", "terraform_data.l", "l1", obj("id", "l1", "input", []any{"a", "b", "c", "d"}))
			nw := tfRes("terraform_data", "terraform_data.l", "l1", obj("id", "l1", "input", []any{"a", "c", "d"}))
			return tfEvent(engine.OpUpdate, old, nw, true)
		}, `  # terraform_data.l will be updated in-place
  ~ resource "terraform_data" "l" {
        id    = "l1"
      ~ input = [
            "a",
          - "b",
            # (2 unchanged elements hidden)
        ]
    }`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, lines := tfBlock(painter{}, c.event())
			if diff := cmp.Diff(strings.Split(c.want, "\n"), lines); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
