package tfplugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestCompareWithTerraform applies testdata/tfcompare/main.tf with the real
// terraform CLI (using the same provider binaries through dev_overrides, no
// network) and the same resources through the adapter, and compares every
// attribute value.
func TestCompareWithTerraform(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH; skipping the comparison with Terraform (install terraform 1.11 to run it)")
	}
	binaries := map[string]string{}
	for _, name := range []string{"random", "local", "tls"} {
		binaries[name] = realBinary(t, name)
	}
	want := terraformState(t, tf, binaries)
	key, err := os.ReadFile("testdata/tfcompare/key.pem")
	mustOK(t, "read key", err)
	got := map[string]resource.Object{
		"random_integer.n": adapterCreate(t, "random", "random_integer", obj(map[string]any{"min": 1, "max": 1000000, "seed": "plinth"})),
		"random_shuffle.s": adapterCreate(t, "random", "random_shuffle", obj(map[string]any{
			"input": []any{"a", "b", "c", "d", "e", "f"}, "result_count": 4, "seed": "plinth"})),
		"local_file.f":          adapterCreate(t, "local", "local_file", obj(map[string]any{"filename": "compare.txt", "content": "compare me\n"})),
		"data.tls_public_key.k": adapterRead(t, "tls", "tls_public_key", obj(map[string]any{"private_key_pem": string(key)})),
	}
	for addr, outputs := range got {
		t.Run(addr, func(t *testing.T) {
			w, ok := want[addr]
			if !ok {
				t.Fatalf("terraform's state has no %s", addr)
			}
			if diff := cmp.Diff(w, asJSON(t, outputs)); diff != "" {
				t.Errorf("attributes differ from terraform's (-terraform +plinth):\n%s", diff)
			}
		})
	}
}

// terraformState applies the configuration with terraform and returns each
// resource's attribute values by address, as JSON data.
func terraformState(t *testing.T, tf string, binaries map[string]string) map[string]any {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"main.tf", "key.pem"} {
		b, err := os.ReadFile(filepath.Join("testdata/tfcompare", f))
		mustOK(t, "read "+f, err)
		mustOK(t, "write "+f, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	var overrides bytes.Buffer
	for name, bin := range binaries {
		fmt.Fprintf(&overrides, "    %q = %q\n", "hashicorp/"+name, filepath.Dir(bin))
	}
	cliConfig := filepath.Join(dir, "terraformrc")
	rc := "provider_installation {\n  dev_overrides {\n" + overrides.String() + "  }\n  direct {}\n}\n"
	mustOK(t, "write CLI config", os.WriteFile(cliConfig, []byte(rc), 0o644))
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	run := func(args ...string) []byte {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s\n%s", args, err, out, stderr.String())
		}
		return out
	}
	run("apply", "-auto-approve", "-no-color")
	return stateValues(t, run("show", "-json"))
}

func stateValues(t *testing.T, showJSON []byte) map[string]any {
	t.Helper()
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string          `json:"address"`
					Values  json.RawMessage `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	mustOK(t, "decode terraform show -json", json.Unmarshal(showJSON, &state))
	out := map[string]any{}
	for _, r := range state.Values.RootModule.Resources {
		out[r.Address] = decodeJSON(t, r.Values)
	}
	return out
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	mustOK(t, "decode JSON", dec.Decode(&v))
	return v
}

// asJSON renders outputs as terraform's JSON would hold them (secrets plain).
func asJSON(t *testing.T, o resource.Object) any {
	t.Helper()
	b, err := stateJSON(o)
	mustOK(t, "stateJSON", err)
	return decodeJSON(t, b)
}

func adapterCreate(t *testing.T, providerName, typ string, inputs resource.Object) resource.Object {
	t.Helper()
	l := lifecycle{t, startReal(t, providerName, "", nil), urn(typ, "cmp")}
	return l.create(inputs).Outputs
}

func adapterRead(t *testing.T, providerName, typ string, args resource.Object) resource.Object {
	t.Helper()
	p := startReal(t, providerName, "", nil)
	resp, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: TypeToken(typ), Args: args})
	mustOK(t, "Invoke "+typ, err)
	if len(resp.Failures) > 0 {
		t.Fatalf("Invoke %s: %v", typ, resp.Failures)
	}
	return resp.Return
}
