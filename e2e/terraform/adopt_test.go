package terraform

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestAdoptTerraformState: terraform applies testdata/adopt/main.tf; plinth
// adopts its terraform.tfstate into the program declaring the same
// resources; the preview finds nothing to change, the stack outputs equal
// terraform's (the random ones included), and no secret is stored in plain
// text. Then the state exported as a Terraform state makes `terraform plan
// -detailed-exitcode` find nothing to change either.
func TestAdoptTerraformState(t *testing.T) {
	t.Parallel()
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping the adoption of a real Terraform state (install terraform 1.11 to run it)")
	}
	p := realProject(t, "adopt")
	run := terraformIn(t, tf, p.dir)
	run("apply", "-auto-approve", "-no-color")
	pet := strings.TrimSpace(string(run("output", "-raw", "pet")))
	password := strings.TrimSpace(string(run("output", "-raw", "password")))

	out := p.must("state", "adopt", p.path("terraform.tfstate"))
	if !strings.Contains(out.Stdout, "4 resources (0 tainted, 0 pending deletion), 2 outputs") {
		t.Errorf("adopt said:\n%s", out.Output())
	}
	p.noChanges("after adopting terraform's state")
	if got := p.output("pet"); got != pet {
		t.Errorf("output pet = %s, terraform's is %s", got, pet)
	}
	if got := p.output("password", "--show-secrets"); got != password {
		t.Errorf("output password = %s, terraform's is %s", got, password)
	}
	if leaked := findInDir(t, p.path(".plinth"), password); leaked != "" {
		t.Errorf("the sensitive password is stored in plain text in %s", leaked)
	}

	exported := p.must("state", "export", "--format", "terraform").Stdout
	if err := os.WriteFile(p.path("terraform.tfstate"), []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tf, "plan", "-detailed-exitcode", "-no-color")
	cmd.Dir, cmd.Env = p.dir, terraformEnv(t, p.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("terraform plan on the exported state: %v, want exit 0 (no changes)\n%s", err, out)
	}
}

// terraformEnv is the environment terraform runs in: the real providers
// through dev_overrides, no network, no prompts.
func terraformEnv(t *testing.T, dir string) []string {
	t.Helper()
	rc := filepath.Join(dir, ".tf")
	if _, err := os.Stat(filepath.Join(rc, "terraformrc")); err != nil {
		if err := os.MkdirAll(rc, 0o755); err != nil {
			t.Fatal(err)
		}
		devOverrides(t, rc)
	}
	return clitest.TerraformEnv(filepath.Join(rc, "terraformrc"), filepath.Join(rc, "data"))
}

// terraformIn returns a function running terraform in dir that must
// succeed, returning its standard output.
func terraformIn(t *testing.T, tf, dir string) func(args ...string) []byte {
	return clitest.Terraform(t, tf, dir, terraformEnv(t, dir))
}

// findInDir returns the first file under dir that contains s, or "".
func findInDir(t *testing.T, dir, s string) string {
	t.Helper()
	var found string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && bytes.Contains(data, []byte(s)) {
			found = path
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
