package funcs

import (
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

const signaturesPath = "testdata/terraform-functions.json"

// excluded lists Terraform built-ins plinth deliberately lacks, with why.
// Every Terraform 1.11 function works offline, so it is empty.
var excluded = map[string]string{}

// tfSignature is a function in `terraform metadata functions -json`.
type tfSignature struct {
	Params   []tfParam `json:"parameters"`
	VarParam *tfParam  `json:"variadic_parameter"`
}

type tfParam struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

func loadSignatures(t *testing.T) map[string]tfSignature {
	t.Helper()
	if *update {
		out, err := exec.Command("terraform", "metadata", "functions", "-json").Output()
		if err != nil {
			t.Fatalf("terraform metadata functions: %v", err)
		}
		if err := os.WriteFile(signaturesPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(signaturesPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Signatures map[string]tfSignature `json:"function_signatures"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("parse %s: %v", signaturesPath, err)
	}
	return doc.Signatures
}

// TestTableHasEveryTerraformFunction: every function terraform 1.11 lists
// (testdata/terraform-functions.json, from `terraform metadata functions
// -json`), "core::" aliases included, is in Table unless excluded, and
// Table has nothing terraform lacks.
func TestTableHasEveryTerraformFunction(t *testing.T) {
	sigs := loadSignatures(t)
	table := Table(t.TempDir())
	var missing, extra []string
	for name := range sigs {
		if _, ok := table[name]; !ok && excluded[name] == "" {
			missing = append(missing, name)
		}
	}
	for name := range table {
		if _, ok := sigs[name]; !ok {
			extra = append(extra, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("missing %v; not in terraform %v", missing, extra)
	}
	if len(sigs) != 236 {
		t.Errorf("terraform 1.11 lists %d functions, want 236 (118 and their core:: aliases)", len(sigs))
	}
}

// TestSignaturesMatchTerraform: parameter names and types are terraform's,
// so error messages name the same parameters.
func TestSignaturesMatchTerraform(t *testing.T) {
	table := Table(t.TempDir())
	for name, want := range loadSignatures(t) {
		f, ok := table[name]
		if !ok {
			continue
		}
		got := signatureOf(t, f)
		if name == "templatestring" || name == "core::templatestring" {
			// Its template is an expression closure that terraform
			// documents as a string.
			got.Params[0].Type = json.RawMessage(`"string"`)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(sameJSON)); diff != "" {
			t.Errorf("%s: terraform (-) and plinth (+) signatures differ:\n%s", name, diff)
		}
	}
}

func signatureOf(t *testing.T, f function.Function) tfSignature {
	var s tfSignature
	for _, p := range f.Params() {
		s.Params = append(s.Params, tfParam{Name: p.Name, Type: typeJSON(t, p.Type)})
	}
	if p := f.VarParam(); p != nil {
		s.VarParam = &tfParam{Name: p.Name, Type: typeJSON(t, p.Type)}
	}
	return s
}

func typeJSON(t *testing.T, ty cty.Type) json.RawMessage {
	if ty.IsCapsuleType() {
		return json.RawMessage(`"dynamic"`)
	}
	b, err := ty.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
}
