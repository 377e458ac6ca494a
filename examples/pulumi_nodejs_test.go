package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pulumiNodejs is the example, relative to this package.
const pulumiNodejs = "pulumi-nodejs"

// nodeProject is a copy of the Pulumi Node.js example with the cached
// node_modules linked in, and the environment its commands run with.
type nodeProject struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newNodeProject(t *testing.T) *nodeProject {
	t.Helper()
	modules := npmModules(t, pulumiNodejs)
	dir := clitest.CopyDir(t, pulumiNodejs)
	linkModules(t, dir, modules)
	return &nodeProject{t: t, dir: dir, opts: clitest.Options{Env: map[string]string{
		"PLINTH_PASSPHRASE": "correct horse",
		"PLINTH_HOME":       filepath.Join(t.TempDir(), "home"),
	}}}
}

func (p *nodeProject) run(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

func (p *nodeProject) try(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.Run(p.t, p.dir, p.opts, args...)
}

// preview previews and checks the step lines and the exit code.
func (p *nodeProject) preview(want ...string) {
	p.t.Helper()
	r := p.try("preview", "--detailed-exitcode")
	code := 0
	if len(want) > 0 {
		code = 2
	}
	if r.Code != code {
		p.t.Fatalf("preview --detailed-exitcode = %d, want %d\n%s", r.Code, code, r.Output())
	}
	if diff := cmp.Diff(want, clitest.PulumiStepLines(r.Stdout), cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()); diff != "" {
		p.t.Errorf("preview (-want +got):\n%s\n%s", diff, r.Output())
	}
}

func (p *nodeProject) read(rel string) string {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// outputs returns `plinth stack output --json`'s plain text.
func (p *nodeProject) output(name string) string {
	p.t.Helper()
	return strings.TrimSpace(p.run("stack", "output", name).Stdout)
}

// transpileOnly makes @pulumi/pulumi's ts-node skip type checking (the
// tsconfig option noCheck) in dir, which keeps the tests' many runs of
// the program fast; the first up of TestPulumiNodejs type-checks.
func transpileOnly(t *testing.T, dir string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "tsconfig.json"), `{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs", "moduleResolution": "node", "skipLibCheck": true, "noCheck": true}}`+"\n")
}

// TestPulumiNodejs runs the example TypeScript program through plinth:
// up, a preview that finds nothing, an edit that updates and one that
// replaces, a refresh after drift, protect, a get, and destroy.
func TestPulumiNodejs(t *testing.T) {
	t.Parallel()
	p := newNodeProject(t)
	// The secret lives in Pulumi.dev.yaml, as for pulumi: plinth config
	// set writes it there in the project's namespace, sealed with Pulumi's
	// passphrase provider (PLINTH_PASSPHRASE stands in for
	// PULUMI_CONFIG_PASSPHRASE) under a new encryptionsalt.
	p.run("config", "set", "--secret", "token", "s3cr3t")
	if cfg := p.read("Pulumi.dev.yaml"); !strings.Contains(cfg, "encryptionsalt: v1:") || !strings.Contains(cfg, "pulumi-nodejs:token:\n    secure: v1:") || strings.Contains(cfg, "s3cr3t") {
		t.Fatalf("Pulumi.dev.yaml does not hold the token sealed for Pulumi:\n%s", cfg)
	}
	p.run("up", "--yes") // type-checked by ts-node
	transpileOnly(t, p.dir)
	pet := strings.Trim(p.output("petName"), `"`)
	if got, want := p.read("out/shouted.txt"), strings.ToUpper(pet); got != want {
		t.Errorf("out/shouted.txt = %q, want %q (the apply-derived value)", got, want)
	}
	if got := p.read("out/secret.txt"); got != "token=s3cr3t\n" {
		t.Errorf("out/secret.txt = %q, want the secret config value", got)
	}
	if !strings.HasPrefix(p.read("out/note.txt"), "hello, ") {
		t.Errorf("out/note.txt = %q, want a greeting", p.read("out/note.txt"))
	}
	if got, want := p.output("manifestSize"), fmt.Sprint(len(p.read("Pulumi.yaml"))); got != want {
		t.Errorf("manifestSize (a get of Pulumi.yaml) = %s, want %s", got, want)
	}
	if out := p.run("stack", "output").Stdout; !strings.Contains(out, "tokenOut") || strings.Contains(out, "s3cr3t") {
		t.Errorf("stack output shows the secret output in plain text, or not at all:\n%s", out)
	}
	p.preview()

	// An edit that updates: the greeting (config, in Pulumi's own stack
	// file) reaches the note's file inside the component.
	appendFile(t, filepath.Join(p.dir, "Pulumi.dev.yaml"), "  pulumi-nodejs:greeting: hi\n")
	p.preview("~  plinth:fs:File note-file update [diff: ~content]")
	p.run("up", "--yes", "--skip-preview")
	if !strings.HasPrefix(p.read("out/note.txt"), "hi, ") {
		t.Errorf("out/note.txt after the update = %q", p.read("out/note.txt"))
	}

	// An edit that replaces: the pet's length; the derived file follows.
	clitest.Edit(t, p.dir, "index.ts", `new plinth.Pet("pet", { length: 2 })`, `new plinth.Pet("pet", { length: 3 })`)
	p.preview(
		"++ plinth:random:Pet pet create replacement [diff: ~length]",
		"+- plinth:random:Pet pet replace [diff: ~length]",
		"-- plinth:random:Pet pet delete original [diff: ~length]",
		"~  plinth:fs:File shouted update [diff: ~content]",
	)
	p.run("up", "--yes", "--skip-preview")
	if newPet := strings.Trim(p.output("petName"), `"`); newPet == pet || strings.Count(newPet, "-") != 2 {
		t.Errorf("petName after the replacement = %q (was %q), want a new three-word name", newPet, pet)
	}

	// Drift: the file changes outside plinth; refresh records it, and the
	// next preview puts it back.
	if err := os.WriteFile(filepath.Join(p.dir, "out/shouted.txt"), []byte("drifted"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.run("refresh", "--yes")
	p.preview("~  plinth:fs:File shouted update [diff: ~content]")
	p.run("up", "--yes", "--skip-preview")

	// protect: destroy refuses the protected string and keeps the state.
	if r := p.try("destroy", "--yes"); r.Code == 0 || !strings.Contains(r.Output(), "protect") {
		t.Fatalf("destroy of a stack with a protected resource succeeded, or did not say why:\n%s", r.Output())
	}
	p.run("config", "set", "protect", "false")
	p.run("up", "--yes", "--skip-preview")
	p.run("destroy", "--yes")
	for _, f := range []string{"out/note.txt", "out/shouted.txt", "out/secret.txt"} {
		if _, err := os.Stat(filepath.Join(p.dir, f)); !os.IsNotExist(err) {
			t.Errorf("after destroy, %s still exists (err %v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(p.dir, "Pulumi.yaml")); err != nil {
		t.Errorf("destroy deleted the file the program only read (get): %v", err)
	}
	p.emptyState()
}

// TestPulumiNodejsPlugin runs the second program, with plinth's provider
// out of process: pulumi-resource-plinth on PLINTH_PLUGIN_PATH.
func TestPulumiNodejsPlugin(t *testing.T) {
	t.Parallel()
	p := newNodeProject(t)
	plugins := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(plugins, "pulumi-resource-plinth"), "github.com/plinth-iac/plinth/cmd/pulumi-resource-plinth")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building pulumi-resource-plinth: %v\n%s", err, out)
	}
	p.opts.Env["PLINTH_PLUGIN_PATH"] = plugins
	p.dir = filepath.Join(p.dir, "plugin")
	transpileOnly(t, p.dir)
	p.run("up", "--yes", "--skip-preview")
	if runtime.GOOS == "linux" {
		if got := strings.Trim(p.output("server"), `"`); got != "pulumi-resource" {
			t.Errorf("the command ran under %q, want the plugin pulumi-resource-plinth (its name as /proc shows it)", got)
		}
	}
	if got := strings.Trim(p.output("envValue"), `"`); got != "unset" {
		t.Errorf("envValue (through a function call) = %s, want unset", got)
	}
	if pet := strings.Trim(p.output("petName"), `"`); p.read("out/plugin.txt") != pet+"\n" {
		t.Errorf("out/plugin.txt = %q, want the pet name %q", p.read("out/plugin.txt"), pet)
	}
	p.preview()
	p.run("destroy", "--yes")
	p.emptyState()
}

func (p *nodeProject) emptyState() {
	p.t.Helper()
	if out := p.run("state", "ls").Stdout; !strings.Contains(out, "records no resources") {
		p.t.Errorf("after destroy the state still records resources:\n%s", out)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
