package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// genConfig imports a random_id that no resource block configures.
const genConfig = `
import {
  to = random_id.gen
  id = "p-9hUg"
}
`

// TestGenerateConfigOut: preview --generate-config-out writes a resource
// block for an import target with no configuration; up then imports it
// with no change and the next preview is clean. Terraform's generated
// block for the same import is logged beside plinth's.
func TestGenerateConfigOut(t *testing.T) {
	needReal(t)
	p := newProject(t, configDir(t, genConfig))
	if r := p.run("preview"); r.Code == 0 || !strings.Contains(r.Output(), "--generate-config-out") {
		t.Errorf("preview without --generate-config-out: exit %d, want the missing configuration named:\n%s", r.Code, r.Output())
	}
	p.must("preview", "--generate-config-out=gen.tf")
	gen, err := os.ReadFile(filepath.Join(p.dir, "gen.tf"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("plinth generated:\n%s", gen)
	for _, want := range []string{"# __generated__ by Plinth", `resource "random_id" "gen"`, "byte_length = 4"} {
		if !strings.Contains(string(gen), want) {
			t.Errorf("gen.tf lacks %q", want)
		}
	}
	if strings.Contains(string(gen), "hex") || strings.Contains(string(gen), "b64_std") {
		t.Errorf("gen.tf holds computed-only attributes")
	}
	if r := p.run("preview", "--generate-config-out=gen.tf"); r.Code == 0 || !strings.Contains(r.Output(), "already exists") {
		t.Errorf("a second --generate-config-out over gen.tf: exit %d, want it refused:\n%s", r.Code, r.Output())
	}
	if r := p.must("up", "--yes"); !strings.Contains(r.Stdout, "import") {
		t.Errorf("up did not import:\n%s", r.Stdout)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a preview after the import is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, configDir(t, genConfig))
	d.must("plan", "-no-color", "-generate-config-out=gen.tf")
	tfGen, err := os.ReadFile(filepath.Join(d.dir, "gen.tf"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("terraform generated:\n%s", tfGen)
}
