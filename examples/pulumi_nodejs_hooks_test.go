package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// hookProgram gives the pet "a" a named before-create hook and an
// anonymous after-create one, each writing a line to hooks.log; config
// length changes a's length (a replacement: its create hooks run again);
// config guard adds a pet "b" whose before-create hook throws.
const hookProgram = `"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const config = new pulumi.Config();
const log = (line) => fs.appendFileSync(path.join(__dirname, "hooks.log"), line + "\n");

const before = new pulumi.ResourceHook("before", (args) => log("before-create " + args.name + " length=" + args.newInputs.length));
const a = new plinth.Pet("a", { length: config.getNumber("length") || 2 }, {
    hooks: { beforeCreate: [before], afterCreate: [(args) => log("after-create " + args.name + " id=" + args.id)] },
});
exports.a = a.id;
if (config.getBoolean("guard")) {
    const guard = new pulumi.ResourceHook("guard", () => { throw new Error("b may not be created"); });
    new plinth.Pet("b", {}, { hooks: { beforeCreate: [guard] } });
}
`

// TestPulumiNodejsHooks: plinth runs a Node.js program's resource hooks
// through the Callbacks service its SDK serves: a named before-create
// hook and an anonymous after-create hook run around the create (the
// latter given the new ID) and again around a replacement's create, not
// in a preview nor for an unchanged resource; a before-create hook that
// throws fails the update (exit 1) naming the resource, the hook and the
// program's message, and the resource is not created. Before, plinth
// refused resource hooks.
func TestPulumiNodejsHooks(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), hookProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir()}}
	run := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(clitest.MustRun(t, dir, opts, args...).Stdout)
	}
	logged := func() []string { return hookLog(t, dir) }
	run("preview")
	if diff := cmp.Diff([]string(nil), logged()); diff != "" {
		t.Errorf("hooks ran in a preview:\n%s", diff)
	}
	run("up", "--yes")
	id := run("stack", "output", "a")
	if diff := cmp.Diff([]string{"before-create_a_length=2", "after-create_a_id=" + id}, logged()); diff != "" {
		t.Errorf("hooks of the create (-want +got):\n%s", diff)
	}
	run("up", "--yes")
	if diff := cmp.Diff([]string(nil), logged()); diff != "" {
		t.Errorf("hooks ran for an unchanged resource:\n%s", diff)
	}
	run("config", "set", "length", "3")
	run("up", "--yes")
	id = run("stack", "output", "a")
	if diff := cmp.Diff([]string{"before-create_a_length=3", "after-create_a_id=" + id}, logged()); diff != "" {
		t.Errorf("hooks of the replacement (-want +got):\n%s", diff)
	}

	run("config", "set", "guard", "true")
	r := clitest.Run(t, dir, opts, "up", "--yes")
	for _, want := range []string{"plinth:random:Pet::b", `before-create hook "guard" failed`, "b may not be created"} {
		if r.Code != 1 || !strings.Contains(r.Output(), want) {
			t.Errorf("up with a throwing hook: exit %d, want 1 and an error with %q\n%s", r.Code, want, r.Output())
		}
	}
	if ls := run("state", "ls"); strings.Contains(ls, "::b") {
		t.Errorf("b was recorded although its before-create hook threw:\n%s", ls)
	}
}

// deleteHookProgram gives the pet "c" a named before-delete and
// after-delete hook, each writing a line to hooks.log; the hook is
// registered whether or not c is declared (config dropc leaves c out),
// as Pulumi requires of delete hooks; config withoutHook registers
// neither.
const deleteHookProgram = `"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const config = new pulumi.Config();
const log = (line) => fs.appendFileSync(path.join(__dirname, "hooks.log"), line + "\n");

if (!config.getBoolean("withoutHook")) {
    const before = new pulumi.ResourceHook("before-delete", (args) => log("before-delete " + args.name + " id=" + args.id + " length=" + args.oldInputs.length));
    const after = new pulumi.ResourceHook("after-delete", (args) => log("after-delete " + args.name + " id=" + args.id));
    if (!config.getBoolean("dropc")) {
        const c = new plinth.Pet("c", { length: config.getNumber("length") || 2 }, { hooks: { beforeDelete: [before], afterDelete: [after] } });
        exports.c = c.id;
    }
}
new plinth.Pet("d", {});
`

// TestPulumiNodejsDeleteHooks: plinth runs a Node.js program's delete
// hooks as Pulumi does: recorded by name with the resource, run around a
// replacement's delete and around the delete of a resource the program
// no longer declares (the program still registers the hook, and waits
// through SignalAndWaitForShutdown while plinth deletes); a destroy,
// which does not run the program, is refused before anything is deleted,
// and so is the delete when the program no longer registers the hook
// (exit 1, the resource and hook named, state unchanged). Before, plinth
// refused delete hooks.
func TestPulumiNodejsDeleteHooks(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), deleteHookProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir()}}
	run := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(clitest.MustRun(t, dir, opts, args...).Stdout)
	}
	logged := func() []string { return hookLog(t, dir) }
	refused := func(what, want string, args ...string) {
		t.Helper()
		before := run("state", "ls")
		r := clitest.Run(t, dir, opts, args...)
		if r.Code != 1 || !strings.Contains(r.Output(), want) || !strings.Contains(r.Output(), "plinth:random:Pet::c") {
			t.Errorf("%s: exit %d, want 1 and an error naming c and %q\n%s", what, r.Code, want, r.Output())
		}
		if after := run("state", "ls"); after != before {
			t.Errorf("%s changed the state:\n%s\nto\n%s", what, before, after)
		}
		if l := logged(); len(l) > 0 {
			t.Errorf("%s ran hooks: %q", what, l)
		}
	}
	run("up", "--yes")
	if diff := cmp.Diff([]string(nil), logged()); diff != "" {
		t.Errorf("delete hooks ran on create:\n%s", diff)
	}
	old := run("stack", "output", "c")
	run("config", "set", "length", "3")
	run("up", "--yes")
	if diff := cmp.Diff([]string{"before-delete_c_id=" + old + "_length=2", "after-delete_c_id=" + old}, logged()); diff != "" {
		t.Errorf("hooks of the replacement's delete (-want +got):\n%s", diff)
	}
	refused("destroy", `after-delete hook "after-delete" cannot run`, "destroy", "--yes")
	run("config", "set", "withoutHook", "true")
	refused("up without the hook", `hook "before-delete" is not registered by the program`, "up", "--yes")
	run("config", "rm", "withoutHook")

	cur := run("stack", "output", "c")
	run("config", "set", "dropc", "true")
	run("preview")
	if diff := cmp.Diff([]string(nil), logged()); diff != "" {
		t.Errorf("hooks ran in a preview:\n%s", diff)
	}
	run("up", "--yes")
	if diff := cmp.Diff([]string{"before-delete_c_id=" + cur + "_length=3", "after-delete_c_id=" + cur}, logged()); diff != "" {
		t.Errorf("hooks of the delete of c, no longer declared (-want +got):\n%s", diff)
	}
	run("destroy", "--yes")
}

// errorHookProgram writes a file under out/blocked, which the test makes
// a file first, so the create fails; the error hook removes the blocker
// and asks to retry, logging what it was told.
const errorHookProgram = `"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const log = (line) => fs.appendFileSync(path.join(__dirname, "hooks.log"), line + "\n");

const unblock = new pulumi.ErrorHook("unblock", (args) => {
    log("on-error " + args.name + " " + args.failedOperation + " errors=" + args.errors.length);
    fs.rmSync(path.join(__dirname, "out", "blocked"), { force: true });
    return true;
});
new plinth.File("f", { path: "out/blocked/f.txt", content: "hello" }, { hooks: { onError: [unblock] } });
`

// TestPulumiNodejsErrorHooks: a Node.js program's error hook runs when a
// create fails, told the operation and its errors; it asks to retry, and
// the retried create succeeds. Before, plinth refused error hooks.
func TestPulumiNodejsErrorHooks(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), errorHookProgram)
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "out", "blocked"), "in the way")
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir()}}
	r := clitest.MustRun(t, dir, opts, "up", "--yes", "--skip-preview")
	if !strings.Contains(r.Output(), "retrying the create, as an error hook asked") {
		t.Errorf("up does not say the create was retried:\n%s", r.Output())
	}
	b, err := os.ReadFile(filepath.Join(dir, "hooks.log"))
	if err != nil || strings.TrimSpace(string(b)) != "on-error f create errors=1" {
		t.Errorf("hooks.log = %q (%v), want one call for the failed create", b, err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "out", "blocked", "f.txt")); err != nil || string(got) != "hello" {
		t.Errorf("out/blocked/f.txt = %q (%v), want hello", got, err)
	}
}

// hookLog returns and removes the lines the hook programs wrote to
// hooks.log in dir since the last call, spaces as underscores.
func hookLog(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "hooks.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(dir, "hooks.log"))
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l != "" {
			lines = append(lines, strings.ReplaceAll(l, " ", "_"))
		}
	}
	return lines
}
