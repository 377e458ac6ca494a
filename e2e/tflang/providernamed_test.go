package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestProviderNamedType: a data source whose type is its provider's name
// (data "echo", served by internal/terraform-provider-echo, as the
// external and http providers serve theirs) is accepted, read and its
// result output alike by terraform and plinth.
func TestProviderNamedType(t *testing.T) {
	needReal(t)
	const src = "testdata/provider_named"
	bin := filepath.Join(t.TempDir(), "terraform-provider-echo_v1.0.0")
	build := exec.Command("go", "build", "-o", bin, "./internal/terraform-provider-echo")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the echo provider: %v\n%s", err, out)
	}
	p := newProject(t, src)
	p.opts.Env["PLINTH_PLUGIN_PATH"] = filepath.Dir(bin) + string(os.PathListSeparator) + pluginDir
	got := plinthApplyProject(t, p, src)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the comparison with terraform")
	}
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(providerMirror(t, "echo", bin), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	terraform("apply", "-auto-approve", "-no-color")
	compareOutputs(t, terraformOutputs(t, terraform), got)
}

// providerMirror writes a terraform CLI configuration whose provider
// source is a filesystem mirror holding the test provider hashicorp/name
// 1.0.0 built at bin, and returns its path.
func providerMirror(t *testing.T, name, bin string) string {
	t.Helper()
	mirror := t.TempDir()
	dir := filepath.Join(mirror, "registry.terraform.io", "hashicorp", name, "1.0.0", runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(dir, filepath.Base(bin))); err != nil {
		t.Fatal(err)
	}
	conf := "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror + "\"\n  }\n}\n"
	path := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
