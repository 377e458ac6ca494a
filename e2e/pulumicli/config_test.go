//go:build unix

package pulumicli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost/nodejs/nodetest"
)

// configProgram is a plain JavaScript Pulumi program that exports, in the
// clear, the config it was given and which keys came as secrets.
const configProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
const cfg = new pulumi.Config();
exports.seen = pulumi.unsecret(pulumi.all([cfg.requireSecret("token"), cfg.requireSecretObject("obj"), cfg.requireSecret("back")])
	.apply(([token, obj, back]) => JSON.stringify({token, obj, back})));
exports.secretKeys = process.env.PULUMI_CONFIG_SECRET_KEYS;
`

// configWorld is one Pulumi project directory that both the pulumi CLI
// (file backend, PULUMI_CONFIG_PASSPHRASE) and plinth work in.
type configWorld struct {
	*world
	dir string
}

func newConfigWorld(t *testing.T) configWorld {
	cli := needCLI(t)
	tmp := t.TempDir()
	w := configWorld{world: &world{t: t, cli: cli, env: map[string]string{
		"PLINTH_HOME":                          filepath.Join(tmp, "plinth-home"),
		"PULUMI_HOME":                          filepath.Join(tmp, "pulumi-home"),
		"PULUMI_BACKEND_URL":                   "file://" + filepath.Join(tmp, "pulumi-backend"),
		"PULUMI_CONFIG_PASSPHRASE":             passphrase,
		"PULUMI_SKIP_UPDATE_CHECK":             "true",
		"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING": "true",
		"HOME":                                 tmp,
	}}, dir: filepath.Join(tmp, "project")}
	w.pulumi, w.project = w.dir, w.dir
	for _, d := range []string{w.dir, filepath.Join(tmp, "pulumi-backend")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.write(filepath.Join(w.dir, "Pulumi.yaml"), "name: cfgprog\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n")
	w.write(filepath.Join(w.dir, "package.json"), `{"name": "cfgprog", "private": true, "main": "index.js"}`)
	w.write(filepath.Join(w.dir, "index.js"), configProgram)
	w.mustPulumi("login", w.env["PULUMI_BACKEND_URL"])
	w.mustPulumi("stack", "init", "dev")
	return w
}

// TestPulumiConfigBothWays: config that `pulumi config set --secret`
// (and --path --secret) wrote to Pulumi.dev.yaml reads decrypted in
// plinth, and reaches a program plinth runs, the object whole with its
// secret leaf opened; what `plinth config set --secret` (and --path
// --secret) writes there, `pulumi config get` reads. A wrong passphrase
// fails naming the file.
func TestPulumiConfigBothWays(t *testing.T) {
	w := newConfigWorld(t)
	w.mustPulumi("config", "set", "--secret", "token", "s3cr3t")
	w.mustPulumi("config", "set", "--path", "--secret", "obj.inner", "x")
	w.mustPulumi("config", "set", "--path", "obj.n", "3")

	for args, want := range map[string]string{"token": "s3cr3t", "--path obj.inner": "x", "obj": `{"inner":"x","n":3}`} {
		if got := strings.TrimSpace(w.plinth(append([]string{"config", "get"}, strings.Fields(args)...)...).Stdout); got != want {
			t.Errorf("plinth config get %s = %q, want %q", args, got, want)
		}
	}

	w.plinth("config", "set", "--secret", "back", "b4ck")
	w.plinth("config", "set", "--path", "--secret", "obj.deep", "y")
	for args, want := range map[string]string{"back": "b4ck", "--path obj.deep": "y", "--path obj.inner": "x", "token": "s3cr3t"} {
		if got := strings.TrimSpace(w.mustPulumi(append([]string{"config", "get"}, strings.Fields(args)...)...)); got != want {
			t.Errorf("pulumi config get %s = %q, want %q", args, got, want)
		}
	}

	wrong := map[string]string{}
	for k, v := range w.env {
		wrong[k] = v
	}
	wrong["PULUMI_CONFIG_PASSPHRASE"] = "not the passphrase"
	r := w.tryPlinth(wrong, "config", "get", "token")
	if r.Code == 0 || !strings.Contains(r.Output(), "Pulumi.dev.yaml: Wrong passphrase") || !strings.Contains(r.Output(), "PULUMI_CONFIG_PASSPHRASE is not the passphrase") {
		t.Errorf("a wrong passphrase: exit %d, want a failure naming Pulumi.dev.yaml:\n%s", r.Code, r.Output())
	}

	runConfigProgram(t, w)
}

// runConfigProgram runs the program under plinth and checks what config
// it got.
func runConfigProgram(t *testing.T, w configWorld) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node to run the program with")
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "pulumi-nodejs"))
	if err != nil {
		t.Fatal(err)
	}
	nodetest.Link(t, w.dir, nodetest.Modules(t, examples))
	w.plinth("up", "--yes")
	var seen any
	if err := json.Unmarshal([]byte(unquote(t, w.plinth("stack", "output", "seen").Stdout)), &seen); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"token": "s3cr3t", "back": "b4ck", "obj": map[string]any{"inner": "x", "n": float64(3), "deep": "y"}}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("the config the program read (-want +got):\n%s", diff)
	}
	if got := unquote(t, w.plinth("stack", "output", "secretKeys").Stdout); got != `["cfgprog:back","cfgprog:obj","cfgprog:token"]` {
		t.Errorf("PULUMI_CONFIG_SECRET_KEYS = %s, want the three keys that hold secrets", got)
	}
}

// unquote reads a string `plinth stack output NAME` printed.
func unquote(t *testing.T, out string) string {
	t.Helper()
	var s string
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &s); err != nil {
		return strings.TrimSpace(out)
	}
	return s
}
