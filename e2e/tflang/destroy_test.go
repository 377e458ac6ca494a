package tflang

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestDestroyConfiguresProviders: destroy configures the providers as
// the configuration does now, opening the ephemeral resources and taking
// the ephemeral variables their provider blocks use, as terraform's
// destroy does: without the ephemeral variable's value both tools refuse
// ("No value for required variable") and change nothing; with it both
// destroy everything.
func TestDestroyConfiguresProviders(t *testing.T) {
	needReal(t)
	const missing = "No value for required variable"
	p := newProject(t, "testdata/destroy_ephemeral")
	p.must("up", "--yes", "--var", "proxy_user=u")
	if r := p.run("destroy", "--yes"); r.Code != 1 || !strings.Contains(r.Output(), missing) {
		t.Errorf("plinth destroy without the provider's ephemeral variable: exit %d, want 1 with %q:\n%s", r.Code, missing, r.Output())
	}
	if ls := p.must("state", "ls").Stdout; !strings.Contains(ls, "tls_private_key.k") {
		t.Errorf("the refused destroy changed the state:\n%s", ls)
	}
	p.must("destroy", "--yes", "--var", "proxy_user=u")
	if ls := p.must("state", "ls").Stdout; !strings.Contains(ls, "records no resources") {
		t.Errorf("destroy left resources:\n%s", ls)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	dir := clitest.CopyDir(t, "testdata/destroy_ephemeral")
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color", "-var", "proxy_user=u")
	cmd := exec.Command(tf, "destroy", "-auto-approve", "-no-color")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), missing) {
		t.Errorf("terraform destroy without the variable: %v, want a failure with %q:\n%s", err, missing, out)
	}
	if out := string(terraform("destroy", "-auto-approve", "-no-color", "-var", "proxy_user=u")); !strings.Contains(out, "Resources: 1 destroyed") {
		t.Errorf("terraform destroy:\n%s", out)
	}
}

// TestDestroyNeedsNoMoreThanTerraform: plinth's destroy needs no more of
// the configuration to hold than terraform's: with every precondition,
// postcondition and check assertion false both destroy, with no
// warning; with a variable's validation failing both refuse and change
// nothing.
func TestDestroyNeedsNoMoreThanTerraform(t *testing.T) {
	needReal(t)
	const invalid = "Invalid value for variable"
	const src = "testdata/destroy_conditions"
	p := newProject(t, src)
	p.must("up", "--yes")
	if r := p.run("destroy", "--yes", "--var", "v=bad"); r.Code != 1 || !strings.Contains(r.Output(), invalid) {
		t.Errorf("plinth destroy with an invalid variable: exit %d, want 1 with %q:\n%s", r.Code, invalid, r.Output())
	}
	if ls := p.must("state", "ls").Stdout; !strings.Contains(ls, "tls_private_key.k") {
		t.Errorf("the refused destroy changed the state:\n%s", ls)
	}
	r := p.must("destroy", "--yes", "--var", "ok=false")
	if strings.Contains(r.Output(), "condition") || strings.Contains(r.Output(), "assertion") {
		t.Errorf("plinth destroy reported a condition:\n%s", r.Output())
	}
	if ls := p.must("state", "ls").Stdout; !strings.Contains(ls, "records no resources") {
		t.Errorf("destroy left resources:\n%s", ls)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	cmd := exec.Command(tf, "destroy", "-auto-approve", "-no-color", "-var", "v=bad")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), invalid) {
		t.Errorf("terraform destroy with an invalid variable: %v, want a failure with %q:\n%s", err, invalid, out)
	}
	out := string(terraform("destroy", "-auto-approve", "-no-color", "-var", "ok=false"))
	if !strings.Contains(out, "Resources: 1 destroyed") || strings.Contains(out, "condition") {
		t.Errorf("terraform destroy with every condition false:\n%s", out)
	}
}
