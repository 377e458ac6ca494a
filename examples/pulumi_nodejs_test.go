package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pulumiNodejs is the example, relative to this package.
const pulumiNodejs = "pulumi-nodejs"

// nodeProject is a copy of the Pulumi Node.js example with the cached
// node_modules linked in, and the environment its commands run with.
type nodeProject struct{ clitest.Project }

func newNodeProject(t *testing.T) *nodeProject {
	t.Helper()
	modules := npmModules(t, pulumiNodejs)
	dir := clitest.CopyDir(t, pulumiNodejs)
	linkModules(t, dir, modules)
	return &nodeProject{clitest.Project{T: t, Dir: dir, Opts: clitest.Options{Env: map[string]string{
		"PLINTH_PASSPHRASE": "correct horse",
		"PLINTH_HOME":       filepath.Join(t.TempDir(), "home"),
	}}}}
}

// outputs returns `plinth stack output --json`'s plain text.
func (p *nodeProject) output(name string) string {
	p.T.Helper()
	return strings.TrimSpace(p.Run("stack", "output", name).Stdout)
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
	p.Run("config", "set", "--secret", "token", "s3cr3t")
	if cfg := p.Read("Pulumi.dev.yaml"); !strings.Contains(cfg, "encryptionsalt: v1:") || !strings.Contains(cfg, "pulumi-nodejs:token:\n    secure: v1:") || strings.Contains(cfg, "s3cr3t") {
		t.Fatalf("Pulumi.dev.yaml does not hold the token sealed for Pulumi:\n%s", cfg)
	}
	p.Run("up", "--yes") // type-checked by ts-node
	transpileOnly(t, p.Dir)
	pet := strings.Trim(p.output("petName"), `"`)
	if got, want := p.Read("out/shouted.txt"), strings.ToUpper(pet); got != want {
		t.Errorf("out/shouted.txt = %q, want %q (the apply-derived value)", got, want)
	}
	if got := p.Read("out/secret.txt"); got != "token=s3cr3t\n" {
		t.Errorf("out/secret.txt = %q, want the secret config value", got)
	}
	if !strings.HasPrefix(p.Read("out/note.txt"), "hello, ") {
		t.Errorf("out/note.txt = %q, want a greeting", p.Read("out/note.txt"))
	}
	if got, want := p.output("manifestSize"), fmt.Sprint(len(p.Read("Pulumi.yaml"))); got != want {
		t.Errorf("manifestSize (a get of Pulumi.yaml) = %s, want %s", got, want)
	}
	if out := p.Run("stack", "output").Stdout; !strings.Contains(out, "tokenOut") || strings.Contains(out, "s3cr3t") {
		t.Errorf("stack output shows the secret output in plain text, or not at all:\n%s", out)
	}
	p.PulumiPreview()

	// An edit that updates: the greeting (config, in Pulumi's own stack
	// file) reaches the note's file inside the component.
	appendFile(t, filepath.Join(p.Dir, "Pulumi.dev.yaml"), "  pulumi-nodejs:greeting: hi\n")
	p.PulumiPreview("~  plinth:fs:File note-file update [diff: ~content]")
	p.Run("up", "--yes", "--skip-preview")
	if !strings.HasPrefix(p.Read("out/note.txt"), "hi, ") {
		t.Errorf("out/note.txt after the update = %q", p.Read("out/note.txt"))
	}

	// An edit that replaces: the pet's length; the derived file follows.
	clitest.Edit(t, p.Dir, "index.ts", `new plinth.Pet("pet", { length: 2 })`, `new plinth.Pet("pet", { length: 3 })`)
	p.PulumiPreview(
		"++ plinth:random:Pet pet create replacement [diff: ~length]",
		"+- plinth:random:Pet pet replace [diff: ~length]",
		"-- plinth:random:Pet pet delete original [diff: ~length]",
		"~  plinth:fs:File shouted update [diff: ~content]",
	)
	p.Run("up", "--yes", "--skip-preview")
	if newPet := strings.Trim(p.output("petName"), `"`); newPet == pet || strings.Count(newPet, "-") != 2 {
		t.Errorf("petName after the replacement = %q (was %q), want a new three-word name", newPet, pet)
	}

	// Drift: the file changes outside plinth; refresh records it, and the
	// next preview puts it back.
	if err := os.WriteFile(filepath.Join(p.Dir, "out/shouted.txt"), []byte("drifted"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Run("refresh", "--yes")
	p.PulumiPreview("~  plinth:fs:File shouted update [diff: ~content]")
	p.Run("up", "--yes", "--skip-preview")

	// protect: destroy refuses the protected string and keeps the state.
	if r := p.Try("destroy", "--yes"); r.Code == 0 || !strings.Contains(r.Output(), "protect") {
		t.Fatalf("destroy of a stack with a protected resource succeeded, or did not say why:\n%s", r.Output())
	}
	p.Run("config", "set", "protect", "false")
	p.Run("up", "--yes", "--skip-preview")
	p.Run("destroy", "--yes")
	for _, f := range []string{"out/note.txt", "out/shouted.txt", "out/secret.txt"} {
		if _, err := os.Stat(filepath.Join(p.Dir, f)); !os.IsNotExist(err) {
			t.Errorf("after destroy, %s still exists (err %v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "Pulumi.yaml")); err != nil {
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
	p.Opts.Env["PLINTH_PLUGIN_PATH"] = plugins
	p.Dir = filepath.Join(p.Dir, "plugin")
	transpileOnly(t, p.Dir)
	p.Run("up", "--yes", "--skip-preview")
	if runtime.GOOS == "linux" {
		if got := strings.Trim(p.output("server"), `"`); got != "pulumi-resource" {
			t.Errorf("the command ran under %q, want the plugin pulumi-resource-plinth (its name as /proc shows it)", got)
		}
	}
	if got := strings.Trim(p.output("envValue"), `"`); got != "unset" {
		t.Errorf("envValue (through a function call) = %s, want unset", got)
	}
	if pet := strings.Trim(p.output("petName"), `"`); p.Read("out/plugin.txt") != pet+"\n" {
		t.Errorf("out/plugin.txt = %q, want the pet name %q", p.Read("out/plugin.txt"), pet)
	}
	p.PulumiPreview()
	p.Run("destroy", "--yes")
	p.emptyState()
}

func (p *nodeProject) emptyState() {
	p.T.Helper()
	if out := p.Run("state", "ls").Stdout; !strings.Contains(out, "records no resources") {
		p.T.Errorf("after destroy the state still records resources:\n%s", out)
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
