package tflang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// randomPrefix marks outputs whose values come from randomness: they are
// not compared with terraform's.
const randomPrefix = "rand_"

// TestSideBySide applies each configuration under testdata/compare with
// plinth and, where terraform is on PATH, with terraform, on the same
// provider binaries, and compares the outputs; then a second preview must
// find no changes and destroy must leave an empty state. A step2.tf, if
// present, replaces main.tf for a second apply (lifecycle options). A
// cli.vars, if present, holds NAME=VALUE lines given to both tools as
// -var (terraform) and --var (plinth), after every .tfvars file.
// terraform's outputs are those TestAdoptCorpus, which runs first, had
// from its own terraform apply of the configuration, where it ran one.
func TestSideBySide(t *testing.T) {
	needReal(t)
	dirs, err := filepath.Glob("testdata/compare/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no configurations under testdata/compare: %v", err)
	}
	tf, _ := exec.LookPath("terraform")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			got := plinthApply(t, dir)
			if tf == "" {
				t.Log("terraform is not on PATH: skipping the comparison with terraform (install terraform 1.11 to run it)")
				return
			}
			compareOutputs(t, terraformOutputsOf(t, tf, dir), got)
		})
	}
}

func compareOutputs(t *testing.T, want, got map[string]any) {
	t.Helper()
	strip := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			if !strings.HasPrefix(k, randomPrefix) {
				out[k] = v
			}
		}
		return out
	}
	if diff := cmp.Diff(strip(want), strip(got)); diff != "" {
		t.Errorf("outputs differ (-terraform +plinth):\n%s", diff)
	}
}

// project is a copy of a configuration driven through plinth's CLI.
type project struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newProject(t *testing.T, src string) *project {
	t.Helper()
	return &project{t: t, dir: clitest.CopyDir(t, src), opts: clitest.Options{Env: map[string]string{
		"PLINTH_PLUGIN_PATH": pluginDir, "PLINTH_HOME": t.TempDir(), "PULUMI_HOME": t.TempDir(),
		"PLINTH_PASSPHRASE": "tflang",
	}}}
}

func (p *project) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

func (p *project) must(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// outputs are the stack outputs, secrets shown.
func (p *project) outputs() map[string]any {
	p.t.Helper()
	out := map[string]any{}
	decodeJSON(p.t, p.must("stack", "output", "--json", "--show-secrets").Stdout, &out)
	return out
}

// plinthApply runs up (and a second step if the configuration has one),
// checks that a preview then finds nothing to do, and destroys.
func plinthApply(t *testing.T, src string) map[string]any {
	return plinthApplyProject(t, newProject(t, src), src)
}

// plinthApplyProject is plinthApply on a project already made from src.
func plinthApplyProject(t *testing.T, p *project, src string) map[string]any {
	vars := cliVars(t, src, "--var")
	up := append([]string{"up", "--yes"}, vars...)
	p.must(up...)
	if step2, err := os.ReadFile(filepath.Join(p.dir, "step2.tf.txt")); err == nil {
		if err := os.WriteFile(filepath.Join(p.dir, "main.tf"), step2, 0o644); err != nil {
			t.Fatal(err)
		}
		p.must(up...)
	}
	out := p.outputs()
	if r := p.run(append([]string{"preview", "--detailed-exitcode"}, vars...)...); r.Code != 0 {
		t.Errorf("a second preview found changes or failed (exit %d):\n%s", r.Code, r.Output())
	}
	p.must(append([]string{"destroy", "--yes"}, vars...)...)
	if r := p.must("state", "ls"); !strings.Contains(r.Stdout, "records no resources") {
		t.Errorf("destroy left resources:\n%s", r.Stdout)
	}
	return out
}

// appliedOutputs are terraform's outputs of the configurations of
// testdata/compare that TestAdoptCorpus applied with terraform (those
// without a cli.vars, which it does not give), by source directory, so
// that TestSideBySide, which runs after it, need not apply them again.
var appliedOutputs sync.Map

// rememberOutputs keeps terraform's outputs of src for TestSideBySide.
func rememberOutputs(src string, out map[string]any) {
	if _, err := os.Stat(filepath.Join(src, "cli.vars")); os.IsNotExist(err) {
		appliedOutputs.Store(src, out)
	}
}

// terraformOutputsOf are terraform's outputs of src: those
// TestAdoptCorpus had, else those of an apply of src now.
func terraformOutputsOf(t *testing.T, tf, src string) map[string]any {
	t.Helper()
	if out, ok := appliedOutputs.Load(src); ok {
		return out.(map[string]any)
	}
	return terraformApply(t, tf, src)
}

// terraformApply applies a copy of the configuration with terraform on the
// same provider binaries (dev_overrides, no network) and returns its
// outputs.
func terraformApply(t *testing.T, tf, src string) map[string]any {
	t.Helper()
	dir := clitest.CopyDir(t, src)
	env := clitest.TerraformEnv(devOverrides(t, dir), filepath.Join(dir, ".terraform"))
	terraform := clitest.Terraform(t, tf, dir, env)
	terraform("init", "-input=false", "-no-color")
	apply := append([]string{"apply", "-auto-approve", "-no-color"}, cliVars(t, src, "-var")...)
	terraform(apply...)
	if step2, err := os.ReadFile(filepath.Join(dir, "step2.tf.txt")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), step2, 0o644); err != nil {
			t.Fatal(err)
		}
		terraform(apply...)
	}
	return terraformOutputs(t, terraform)
}

// terraformOutputs are the outputs terraform output -json gives.
func terraformOutputs(t *testing.T, terraform func(args ...string) []byte) map[string]any {
	t.Helper()
	var raw map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	decodeJSON(t, string(terraform("output", "-json")), &raw)
	out := map[string]any{}
	for k, v := range raw {
		var val any
		decodeJSON(t, string(v.Value), &val)
		out[k] = val
	}
	return out
}

// cliVars reads a configuration's cli.vars (NAME=VALUE lines) as
// command-line arguments with the given flag.
func cliVars(t *testing.T, dir, flag string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cli.vars"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		args = append(args, flag, line)
	}
	return args
}

// devOverrides writes a terraform CLI configuration whose only provider
// source is a filesystem mirror of the binaries plinth uses, so terraform
// init works without the network, and returns its path.
func devOverrides(t *testing.T, _ string) string {
	t.Helper()
	mirror := t.TempDir()
	for name, path := range linked {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(target) // terraform-provider-random_v3.9.0
		version := base[strings.LastIndex(base, "_v")+2:]
		dir := filepath.Join(mirror, "registry.terraform.io", "hashicorp", name, version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, base)); err != nil {
			t.Fatal(err)
		}
	}
	conf := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	path := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func decodeJSON(t *testing.T, text string, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding JSON: %v\n%s", err, text)
	}
}

// TestTerraformExample runs examples/terraform: up, a clean second
// preview, destroy.
func TestTerraformExample(t *testing.T) {
	needReal(t)
	out := plinthApply(t, "../../examples/terraform")
	if pets, ok := out["pets"].([]any); !ok || len(pets) != 2 {
		t.Errorf("the example's pets output is %v, want two names", out["pets"])
	}
}
