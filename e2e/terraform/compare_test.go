package terraform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestCompareWithTerraform applies testdata/compare with terraform
// (main.tf, the same provider binaries through dev_overrides, no network)
// and with plinth (plinth.yaml), and checks that every attribute of the
// deterministic resources, and the data source's result, is the same.
func TestCompareWithTerraform(t *testing.T) {
	t.Parallel()
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform (install terraform 1.11 to run it)")
	}
	want := terraformApply(t, tf, "testdata/compare")

	p := realProject(t, "compare")
	p.must("up", "--yes")
	got := map[string]any{}
	for _, name := range []string{"n", "s", "f"} {
		var shown struct {
			Type    string `json:"type"`
			Outputs any    `json:"outputs"`
		}
		decodeJSON(t, p.must("state", "show", name, "--json", "--show-secrets").Stdout, &shown)
		got[shown.Type[len(shown.Type)-len(tfType(shown.Type)):]+"."+name] = shown.Outputs
	}
	var key any
	decodeJSON(t, p.must("stack", "output", "publicKey", "--show-secrets").Stdout, &key)
	got["data.tls_public_key.k"] = key

	if len(want) != len(got) {
		t.Errorf("terraform made %d objects, plinth %d", len(want), len(got))
	}
	for addr, w := range want {
		if diff := cmp.Diff(w, got[addr]); diff != "" {
			t.Errorf("%s differs (-terraform +plinth):\n%s", addr, diff)
		}
	}
}

// tfType is the Terraform type name of a type token: its last part.
func tfType(token string) string {
	return token[bytes.LastIndexByte([]byte(token), ':')+1:]
}

// terraformApply copies the configuration into a fresh directory, applies
// it with terraform using the providers plinth uses, and returns each
// object's attributes by address, as `terraform show -json` gives them.
func terraformApply(t *testing.T, tf, src string) map[string]any {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"main.tf", "key.pem"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("apply", "-auto-approve", "-no-color")
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string `json:"address"`
					Values  any    `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	decodeJSON(t, string(terraform("show", "-json")), &shown)
	out := map[string]any{}
	for _, r := range shown.Values.RootModule.Resources {
		out[r.Address] = r.Values
	}
	return out
}

// devOverrides writes a terraform CLI configuration that takes each real
// provider from the directory plinth finds it in, and returns its path.
func devOverrides(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("provider_installation {\n  dev_overrides {\n")
	for name, path := range linked {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			t.Fatal(err)
		}
		// terraform looks for terraform-provider-<name> in the directory;
		// the cache holds the binary under its versioned name.
		alias := filepath.Join(dir, "providers", name)
		if err := os.MkdirAll(alias, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(alias, "terraform-provider-"+name)); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "    %q = %q\n", "hashicorp/"+name, alias)
	}
	b.WriteString("  }\n  direct {}\n}\n")
	path := filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// decodeJSON decodes JSON text keeping numbers exact.
func decodeJSON(t *testing.T, text string, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding JSON: %v\n%s", err, text)
	}
}
