//go:build unix

package corpus

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// plinthIn returns plinth in dir, with homes of the test's own, the
// provider plugin on PLINTH_PLUGIN_PATH, the language's directories on
// PATH and its variables, on the file backend in directory backend ("":
// the test's main one). A program with a base/ finds stack base there.
func (c *run) plinthIn(dir, backend string) *clitest.Project {
	c.t.Helper()
	if backend == "" {
		backend = filepath.Join(c.tmp, "plinth-state")
	}
	p := c.plinthAt(dir, backend)
	if base := filepath.Join(dataDir, c.program, "base"); exists(base) && !c.based["plinth:"+backend] {
		c.based["plinth:"+backend] = true
		c.plinthAt(clitest.CopyDir(c.t, base), backend).Run("up", "--yes", "--stack", "base")
	}
	return p
}

// plinthAt is plinth in dir on the file backend in directory backend.
func (c *run) plinthAt(dir, backend string) *clitest.Project {
	env := map[string]string{
		"PLINTH_HOME":              filepath.Join(c.tmp, "plinth-home"),
		"PULUMI_HOME":              filepath.Join(c.tmp, "pulumi-home"),
		"HOME":                     c.tmp,
		"PLINTH_PLUGIN_PATH":       pluginDir,
		"PLINTH_PASSPHRASE":        passphrase,
		"PULUMI_CONFIG_PASSPHRASE": passphrase,
		"PATH":                     strings.Join(append(c.path, os.Getenv("PATH")), string(os.PathListSeparator)),
	}
	for k, v := range c.env {
		env[k] = v
	}
	env["PLINTH_BACKEND"] = "file:" + backend
	return &clitest.Project{T: c.t, Dir: dir, Opts: clitest.Options{Env: env}}
}

// pulumi is the pulumi CLI in a program directory, on a file backend of
// its own.
type pulumi struct {
	t   *testing.T
	dir string
	env []string
}

// pulumiIn returns the pulumi CLI in dir, logged in to a file backend
// under the test's scratch space named backend, with the language's
// directories and the provider plugin on PATH. A program with a base/
// finds stack base there.
func (c *run) pulumiIn(dir, backend string, path []string) *pulumi {
	c.t.Helper()
	p := c.pulumiAt(dir, backend, path)
	if base := filepath.Join(dataDir, c.program, "base"); exists(base) && !c.based["pulumi:"+backend] {
		c.based["pulumi:"+backend] = true
		b := c.pulumiAt(clitest.CopyDir(c.t, base), backend, path)
		b.run("stack", "init", "base")
		b.run("up", "--yes", "--skip-preview")
	}
	return p
}

// pulumiAt is the pulumi CLI in dir on the file backend named backend.
func (c *run) pulumiAt(dir, backend string, path []string) *pulumi {
	c.t.Helper()
	if cliMissing != "" {
		c.t.Skip(cliMissing)
	}
	url := filepath.Join(c.tmp, backend)
	if err := os.MkdirAll(url, 0o755); err != nil {
		c.t.Fatal(err)
	}
	env := append(os.Environ(),
		"PULUMI_HOME="+filepath.Join(c.tmp, "pulumi-home"),
		"PULUMI_BACKEND_URL=file://"+url,
		"PULUMI_CONFIG_PASSPHRASE="+passphrase,
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"PATH="+strings.Join(append(append(path, pluginDir), os.Getenv("PATH")), string(os.PathListSeparator)),
	)
	for k, v := range c.env {
		env = append(env, k+"="+v)
	}
	return &pulumi{t: c.t, dir: dir, env: env}
}

// try runs a pulumi command and returns its stdout, its stderr and error.
func (p *pulumi) try(args ...string) (string, string, error) {
	cmd := exec.Command(pulumiCLI, append(args, "--non-interactive")...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// run runs a pulumi command that must succeed and returns its stdout.
func (p *pulumi) run(args ...string) string {
	p.t.Helper()
	out, errOut, err := p.try(args...)
	if err != nil {
		p.t.Fatalf("pulumi %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// outputs is the stack's outputs, secrets shown.
func (p *pulumi) outputs() map[string]any {
	p.t.Helper()
	return decodeOutputs(p.t, "pulumi", p.run("stack", "output", "--json", "--show-secrets"))
}

// plinthOutputs is the stack's outputs under plinth, secrets shown.
func plinthOutputs(t *testing.T, p *clitest.Project) map[string]any {
	t.Helper()
	return decodeOutputs(t, "plinth", p.Run("stack", "output", "--json", "--show-secrets").Stdout)
}

func decodeOutputs(t *testing.T, who, out string) map[string]any {
	t.Helper()
	m := map[string]any{}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%s stack output --json: %v\n%s", who, err, out)
	}
	return m
}

// copyProgram copies testdata/<program> to a new directory, without
// edit/, base/ and expect.json.
func copyProgram(t *testing.T, program string) string {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join(dataDir, program))
	for _, p := range []string{"edit", "base", "expect.json"} {
		if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// applyEdit copies testdata/<program>/edit over dir; a file named
// <name>.delete removes <name>.
func applyEdit(t *testing.T, program, dir string) {
	t.Helper()
	src := filepath.Join(dataDir, program, "edit")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dir, rel)
		if name, ok := strings.CutSuffix(target, ".delete"); ok {
			return os.Remove(name)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("applying %s: %v", src, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
