package examples_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// jsProject is the Pulumi.yaml of a plain JavaScript program: with
// typescript off, @pulumi/pulumi loads it without ts-node.
const jsProject = `name: jsprog
runtime:
  name: nodejs
  options:
    typescript: false
`

// jsProjectDir makes a plain JavaScript Pulumi program in a new directory:
// program as index.js, sdk (see transpileSDK) as ./plinth, and modules
// linked in as its node_modules.
func jsProjectDir(t testing.TB, modules, sdk, program string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Pulumi.yaml"), jsProject)
	writeFile(t, filepath.Join(dir, "package.json"), `{"name": "jsprog", "private": true, "main": "index.js"}`)
	writeFile(t, filepath.Join(dir, "index.js"), program)
	if err := os.Mkdir(filepath.Join(dir, "plinth"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "plinth", "index.js"), sdk)
	linkModules(t, dir, modules)
	return dir
}

// transpileSDK is the example's TypeScript SDK (plinth/index.ts) as
// CommonJS JavaScript, transpiled by the TypeScript compiler in modules
// (a devDependency of the example).
func transpileSDK(t testing.TB, modules string) string {
	t.Helper()
	script := `const ts = require(process.argv[1]);
const src = require("fs").readFileSync(process.argv[2], "utf8");
const out = ts.transpileModule(src, {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020}});
process.stdout.write(out.outputText);`
	src, err := filepath.Abs(filepath.Join(pulumiNodejs, "plinth", "index.ts"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "-e", script, filepath.Join(modules, "typescript"), src).Output()
	if err != nil {
		t.Fatalf("transpiling %s with the TypeScript compiler in %s: %v", src, modules, err)
	}
	return string(out)
}

// jsProgram is a plain JavaScript program: it fails if ts-node was loaded
// (typescript: false must keep it out), and exports a value derived by
// apply.
const jsProgram = `"use strict";
if (require.extensions[".ts"]) { throw new Error("ts-node was loaded for a JavaScript program"); }
const plinth = require("./plinth");
const a = new plinth.Pet("a", { length: 2 });
const b = new plinth.Pet("b", { length: 3, prefix: "js" });
exports.names = a.name.apply(n => n.split("-").length + " words");
`

// TestPulumiNodejsJavaScript runs a plain JavaScript Pulumi program (no
// ts-node) through up, a no-change preview, stack output and destroy.
func TestPulumiNodejsJavaScript(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), jsProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "js", "PLINTH_HOME": t.TempDir()}}
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"up", "--yes"}, "3 created"},
		{[]string{"preview"}, "3 unchanged"},
		{[]string{"stack", "output", "names"}, "2 words"},
		{[]string{"destroy", "--yes"}, "3 deleted"},
	}
	for _, s := range steps {
		r := clitest.MustRun(t, dir, opts, s.args...)
		if !strings.Contains(r.Stdout, s.want) {
			t.Fatalf("plinth %s: output lacks %q\n%s", strings.Join(s.args, " "), s.want, r.Output())
		}
	}
}
