package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
)

// moduleFixture is the registry of initRegistry also serving
// plinth/pet/random 1.0.0 and 1.1.0 (testdata/terraform/modules-registry)
// and a bare git repository holding testdata/terraform/modules-git,
// tagged v1.0.0; env is the environment both tools run in.
type moduleFixture struct {
	srv    *registrytest.Server
	env    map[string]string
	gitURL string // file:// URL of the bare repository
}

func newModuleFixture(t *testing.T) moduleFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	srv, env := initRegistry(t)
	pet := hostConfig(t, filepath.Join("testdata", "terraform", "modules-registry"), map[string]string{"REGISTRY": madeUpHost})
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
		srv.AddModule(t, registrytest.Module{Namespace: "plinth", Name: "pet", System: "random", Version: v, Dir: filepath.Join(pet, "pet")})
	}
	work := hostConfig(t, filepath.Join("testdata", "terraform", "modules-git"), map[string]string{"REGISTRY": madeUpHost})
	bare := filepath.Join(t.TempDir(), "modules.git")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=Plinth Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(work, "init", "--quiet")
	git(work, "add", "-A")
	git(work, "commit", "--quiet", "-m", "pet module")
	git(work, "tag", "v1.0.0")
	git(work, "init", "--quiet", "--bare", bare)
	git(work, "push", "--quiet", bare, "HEAD:refs/heads/main", "v1.0.0")
	return moduleFixture{srv: srv, env: env, gitURL: "file://" + bare}
}

// hostConfig copies a testdata directory, replacing the placeholders in
// every .tf file.
func hostConfig(t *testing.T, src string, replace map[string]string) string {
	t.Helper()
	dir := clitest.CopyDir(t, src)
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(path, ".tf") {
			return err
		}
		text := readFile(t, path)
		for old, new := range replace {
			text = strings.ReplaceAll(text, old, new)
		}
		return os.WriteFile(path, []byte(text), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func (f moduleFixture) config(t *testing.T) string {
	return hostConfig(t, filepath.Join("testdata", "terraform", "modules"), map[string]string{"REGISTRY": madeUpHost, "GITURL": f.gitURL,
		"ARCHIVEURL": f.archiveURL()})
}

// TestInitInstallsModulesThenUpUsesThem: plinth init installs a registry
// module (the newest 1.x, with a nested local module), a subdirectory of
// a registry module at an exact version, an https archive, a git module
// at a tag from a subdirectory, and a git module a local module calls; it
// writes modules.json as terraform does, installs the time provider only
// the git module requires, and plinth up runs the configuration with
// them. A second init reuses every module.
func TestInitInstallsModulesThenUpUsesThem(t *testing.T) {
	f := newModuleFixture(t)
	dir := f.config(t)
	opts := clitest.Options{Env: f.env}
	out := clitest.MustRun(t, dir, opts, "init").Stdout
	archive := f.archiveURL()
	wantLines := `Initializing modules...
Downloading git::` + f.gitURL + `?ref=v1.0.0 for git...
- git in .terraform/modules/git/pet
- local in local
Downloading git::` + f.gitURL + ` for local.clock...
- local.clock in .terraform/modules/local.clock/pet
Downloading registry.plinth.test/plinth/pet/random 1.1.0 for reg...
- reg in .terraform/modules/reg
- reg.inner in .terraform/modules/reg/inner
Downloading registry.plinth.test/plinth/pet/random 1.0.0 for regsub...
- regsub in .terraform/modules/regsub/inner
Downloading ` + archive + ` for web...
- web in .terraform/modules/web
- web.inner in .terraform/modules/web/inner
Initializing provider plugins...
`
	if !strings.HasPrefix(out, wantLines) {
		t.Errorf("plinth init output does not start as wanted:\n%s", cmp.Diff(wantLines, out[:min(len(out), len(wantLines))]))
	}
	if !strings.Contains(out, "- Installed registry.plinth.test/hashicorp/time v0.14.1") {
		t.Errorf("plinth init did not install time, which only the git module requires:\n%s", out)
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"git","Source":"git::` + f.gitURL + `//pet?ref=v1.0.0","Dir":".terraform/modules/git/pet"},` +
		`{"Key":"local","Source":"./local","Dir":"local"},` +
		`{"Key":"local.clock","Source":"git::` + f.gitURL + `//pet","Dir":".terraform/modules/local.clock/pet"},` +
		`{"Key":"reg","Source":"registry.plinth.test/plinth/pet/random","Version":"1.1.0","Dir":".terraform/modules/reg"},` +
		`{"Key":"reg.inner","Source":"./inner","Dir":".terraform/modules/reg/inner"},` +
		`{"Key":"regsub","Source":"registry.plinth.test/plinth/pet/random//inner","Version":"1.0.0","Dir":".terraform/modules/regsub/inner"},` +
		`{"Key":"web","Source":"` + archive + `","Dir":".terraform/modules/web"},` +
		`{"Key":"web.inner","Source":"./inner","Dir":".terraform/modules/web/inner"}]}`
	manifest := filepath.Join(dir, ".terraform", "modules", "modules.json")
	if diff := cmp.Diff(want, readFile(t, manifest)); diff != "" {
		t.Fatalf("modules.json (-want +got):\n%s", diff)
	}
	if up := clitest.MustRun(t, dir, opts, "up", "--yes", "--skip-preview").Stdout; !strings.Contains(up, "Resources: 4 added") {
		t.Fatalf("plinth up after init did not create the modules' resources:\n%s", up)
	}
	again := clitest.MustRun(t, dir, opts, "init").Stdout
	if !strings.HasPrefix(again, "Initializing modules...\nInitializing provider plugins...\n") {
		t.Errorf("a second init did not reuse every module silently, as terraform does:\n%s", again)
	}
	if diff := cmp.Diff(want, readFile(t, manifest)); diff != "" {
		t.Errorf("a second init changed modules.json (-want +got):\n%s", diff)
	}
}

// TestInitRefusesAGitRefThatDoesNotExist: a module's ?ref= names no tag,
// branch or commit; init fails naming the module, the ref and the
// repository, and installs nothing: no module, no modules.json, no
// provider.
func TestInitRefusesAGitRefThatDoesNotExist(t *testing.T) {
	f := newModuleFixture(t)
	dir := f.config(t)
	clitest.Edit(t, dir, "main.tf", "?ref=v1.0.0", "?ref=v9.9.9")
	r := clitest.Run(t, dir, clitest.Options{Env: f.env}, "init")
	for _, w := range []string{"main.tf:28", `module "git"`, `no ref "v9.9.9"`, f.gitURL, "Nothing was installed"} {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, r.Stderr)
		}
	}
	if r.Code != 1 {
		t.Errorf("exit %d, want 1", r.Code)
	}
	for _, p := range []string{filepath.Join(".terraform", "modules", "git"), filepath.Join(".terraform", "modules", "modules.json"),
		filepath.Join(".terraform", "modules", "local.clock"), filepath.Join(".terraform", "providers"), ".terraform.lock.hcl"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was installed", p)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ".terraform")); len(entries) > 1 {
		t.Errorf(".terraform holds more than an empty modules directory: %v", entries)
	}
}

// TestInitInstallsTerraformsModules: terraform init and plinth init,
// against the same registry and repository, write the same modules.json
// and lock file; each tool then runs with the other's installed
// directory: plinth up in terraform's, terraform init (changing nothing)
// and terraform plan in plinth's.
func TestInitInstallsTerraformsModules(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	f := newModuleFixture(t)
	opts := clitest.Options{Env: f.env}
	tfEnv := append(os.Environ(), "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
	for k, v := range f.env {
		tfEnv = append(tfEnv, k+"="+v)
	}
	byPlinth, byTerraform := f.config(t), f.config(t)
	plinthOut := clitest.MustRun(t, byPlinth, opts, "init").Stdout
	tfOut := string(clitest.Terraform(t, tf, byTerraform, tfEnv)("init", "-no-color"))
	if diff := cmp.Diff(moduleLines(tfOut), moduleLines(plinthOut)); diff != "" {
		t.Errorf("plinth init's module lines (-terraform's +plinth's):\n%s", diff)
	}
	manifest := filepath.Join(".terraform", "modules", "modules.json")
	for _, name := range []string{manifest, ".terraform.lock.hcl"} {
		if diff := cmp.Diff(readFile(t, filepath.Join(byTerraform, name)), readFile(t, filepath.Join(byPlinth, name))); diff != "" {
			t.Fatalf("plinth's %s (-terraform's +plinth's):\n%s", name, diff)
		}
	}
	want := readFile(t, filepath.Join(byTerraform, manifest))
	if up := clitest.MustRun(t, byTerraform, opts, "up", "--yes", "--skip-preview").Stdout; !strings.Contains(up, "Resources: 4 added") {
		t.Fatalf("plinth up with terraform's modules did not create the modules' resources:\n%s", up)
	}
	tfOut = string(clitest.Terraform(t, tf, byPlinth, tfEnv)("init", "-no-color"))
	plinthOut = clitest.MustRun(t, byTerraform, opts, "init").Stdout
	for dir, out := range map[string]string{byPlinth: tfOut, byTerraform: plinthOut} {
		if lines := moduleLines(out); len(lines) != 0 {
			t.Errorf("init in the other tool's directory %s installed modules again: %q", dir, lines)
		}
		if diff := cmp.Diff(want, readFile(t, filepath.Join(dir, manifest))); diff != "" {
			t.Errorf("init in the other tool's directory %s changed modules.json (-before +after):\n%s", dir, diff)
		}
	}
	plan := string(clitest.Terraform(t, tf, byPlinth, tfEnv)("plan", "-no-color", "-input=false"))
	if !strings.Contains(plan, "4 to add") {
		t.Errorf("terraform plan with plinth's modules does not plan their 4 resources:\n%s", plan)
	}
}

// moduleLines are init's lines between "Initializing modules..." and
// "Initializing provider plugins...".
func moduleLines(out string) []string {
	_, after, ok := strings.Cut(out, "Initializing modules...\n")
	if !ok {
		return []string{"(no Initializing modules... line)"}
	}
	section, _, _ := strings.Cut(after, "Initializing provider plugins...")
	return strings.Fields(strings.ReplaceAll(section, " ", "_"))
}

// archiveURL is the https URL of pet 1.0.0's archive, for a module
// source.
func (f moduleFixture) archiveURL() string {
	return f.srv.URL + "/files/modules/plinth-pet-random-1.0.0.tar.gz"
}
