package examples_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pulumiDynamic is the example with a dynamic provider, relative to this
// package.
const pulumiDynamic = "pulumi-dynamic"

// dynamicToken is the secret the example's provider is configured with.
const dynamicToken = "s3cret-token-for-the-dynamic-provider"

// dynamicProject is a copy of the dynamic-provider example with its
// node_modules linked in and a home of its own, and no Pulumi anywhere
// plinth looks for plugins: PULUMI_HOME is empty, so a pulumi-nodejs
// provider can only be the one plinth hosts.
type dynamicProject struct {
	*nodeProject
}

func newDynamicProject(t *testing.T) dynamicProject {
	t.Helper()
	modules := npmModules(t, pulumiDynamic)
	dir := clitest.CopyDir(t, pulumiDynamic)
	linkModules(t, dir, modules)
	home := t.TempDir()
	return dynamicProject{&nodeProject{clitest.Project{T: t, Dir: dir, Opts: clitest.Options{Env: map[string]string{
		"PLINTH_PASSPHRASE": "correct horse",
		"PLINTH_HOME":       filepath.Join(home, "plinth"),
		"PULUMI_HOME":       filepath.Join(home, "pulumi"),
	}}}}}
}

// wantFile is the file the example's provider writes: the greeting and
// the token's digest as configure() read them from the provider's
// configuration, the message from the resource's inputs, and the greeting
// again as `new pulumi.Config()` read it in the provider's process.
func wantFile(greeting, message string) string {
	sum := sha256.Sum256([]byte(dynamicToken))
	return "greeting: " + greeting + "\nmessage: " + message + "\ntoken: sha256:" + hex.EncodeToString(sum[:])[:12] +
		"\npulumi.Config greeting: " + greeting + "\n"
}

// TestPulumiDynamic: a Pulumi program's dynamic provider
// (pulumi.dynamic.Resource) runs with no Pulumi installed: plinth hosts
// the pulumi-nodejs provider itself, node on the program's own
// @pulumi/pulumi, configured with every stack config value (the secret
// included) and with the config in its environment. up creates the file,
// a second preview changes nothing, an edit updates it, destroy removes
// it, and the secret is never written in the clear.
//
// Before plinth hosted the provider, up failed with "no plugin found for
// package pulumi-nodejs"; with Pulumi's pulumi-resource-pulumi-nodejs
// script installed it failed in the provider's Check with "Missing
// required configuration key: greeting".
func TestPulumiDynamic(t *testing.T) {
	p := newDynamicProject(t)
	p.Run("config", "set", "greeting", "Hello")
	p.Run("config", "set", "--secret", "token", dynamicToken)
	p.Run("config", "set", "message", "world")
	out := filepath.Join(p.Dir, "out.txt")

	p.Run("up", "--yes")
	if diff := cmp.Diff(wantFile("Hello", "world"), p.Read("out.txt")); diff != "" {
		t.Errorf("out.txt after up (-want +got):\n%s", diff)
	}
	p.noSecretWritten()

	r := p.Try("preview", "--detailed-exitcode")
	if r.Code != 0 {
		t.Fatalf("a preview after up = exit %d, want 0 (no changes)\n%s", r.Code, r.Output())
	}
	if got := p.output("path"); got != out {
		t.Errorf("stack output path = %q, want %q", got, out)
	}

	p.Run("config", "set", "message", "there")
	p.PulumiPreview("~  pulumi-nodejs:dynamic:Resource note update [diff: ~message]")
	r = p.Run("up", "--yes")
	if diff := cmp.Diff([]string{"~  pulumi-nodejs:dynamic:Resource note updated [diff: ~message]"}, doneLines(r.Stdout)); diff != "" {
		t.Errorf("up after an edit (-want +got):\n%s\n%s", diff, r.Output())
	}
	if diff := cmp.Diff(wantFile("Hello", "there"), p.Read("out.txt")); diff != "" {
		t.Errorf("out.txt after the edit (-want +got):\n%s", diff)
	}

	p.Run("destroy", "--yes")
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after destroy, %s: %v; want it removed", out, err)
	}
	p.PulumiPreview("+  pulumi-nodejs:dynamic:Resource note create", "+  pulumi:pulumi:Stack pulumi-dynamic-dev create", "+  pulumi:pulumi:Stack pulumi-dynamic-dev create")
	p.noSecretWritten()
}

// doneLines are the lines of an up that say a step was done ("~
// pulumi-nodejs:dynamic:Resource note updated [diff: ...]"), without
// their durations.
func doneLines(stdout string) []string {
	var done []string
	for _, l := range clitest.PulumiStepLines(stdout) {
		if f := strings.Fields(l); len(f) >= 4 && strings.HasSuffix(f[3], "ed") {
			done = append(done, l)
		}
	}
	return done
}

// noSecretWritten checks that the token is in no file of the project (its
// state, its journal, its config) or of plinth's home.
func (p dynamicProject) noSecretWritten() {
	p.T.Helper()
	var found []string
	for _, root := range []string{p.Dir, p.Opts.Env["PLINTH_HOME"]} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), dynamicToken) {
				found = append(found, path)
			}
			return nil
		})
	}
	if diff := cmp.Diff([]string(nil), found, cmpopts.EquateEmpty()); diff != "" {
		p.T.Errorf("the secret token is written in the clear in (-want +got):\n%s", diff)
	}
}

// TestPulumiDynamicDestroyWithoutModules: destroying dynamic resources
// needs the program's node_modules, since their provider is the
// program's own SDK; without them destroy fails saying to run npm install
// and deletes nothing, and succeeds once they are back.
func TestPulumiDynamicDestroyWithoutModules(t *testing.T) {
	p := newDynamicProject(t)
	p.Run("config", "set", "greeting", "Hello")
	p.Run("config", "set", "--secret", "token", dynamicToken)
	p.Run("config", "set", "message", "world")
	p.Run("up", "--yes")
	link := filepath.Join(p.Dir, "node_modules")
	modules, err := os.Readlink(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}

	r := p.Try("destroy", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), "npm install") {
		t.Errorf("destroy without node_modules = exit %d, want a failure saying to run npm install\n%s", r.Code, r.Output())
	}
	if got := p.Read("out.txt"); got != wantFile("Hello", "world") {
		t.Errorf("a failed destroy changed out.txt to %q", got)
	}
	linkModules(t, p.Dir, modules)
	p.Run("destroy", "--yes")
	if _, err := os.Stat(filepath.Join(p.Dir, "out.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after destroy, out.txt: %v; want it removed", err)
	}
}
