package examples_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// aliasProgram builds, by the config key stage, a component with two
// children, app-a (named after it) and b:
//
//	1: Group "app" at the top.
//	2: renamed to "web", with aliases: [{name: "app"}]; app-a is now web-a.
//	3: moved under an Outer component, with aliases: [{parent: undefined}]
//	   (it had no parent).
//	4: b moves out of the group to the top, with aliases: [{parent: group}].
//
// No child has an alias of its own until stage 4: they inherit their
// parent's.
const aliasProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const stage = new pulumi.Config().requireNumber("stage");

class Group extends pulumi.ComponentResource {
    constructor(name, opts, bOut) {
        super("jsprog:index:Group", name, {}, opts);
        this.a = new plinth.Pet(name + "-a", { length: 2 }, { parent: this });
        this.b = new plinth.Pet("b", { length: 2 }, bOut ? { aliases: [{ parent: this }] } : { parent: this });
        this.registerOutputs({});
    }
}
class Outer extends pulumi.ComponentResource {
    constructor(name) { super("jsprog:index:Outer", name, {}); this.registerOutputs({}); }
}

let g;
if (stage === 1) {
    g = new Group("app");
} else if (stage === 2) {
    g = new Group("web", { aliases: [{ name: "app" }] });
} else {
    const outer = new Outer("outer");
    g = new Group("web", { parent: outer, aliases: [{ parent: undefined }] }, stage === 4);
}
exports.a = g.a.id;
exports.b = g.b.id;
`

// TestPulumiNodejsAliasesKeepChildren: a Node.js component renamed, then
// moved under another component, with an alias on the component alone,
// keeps both its children (one named after it); then a child moved out
// of the component with its own alias is kept too. No preview or up after
// the first creates (but the new Outer), deletes, updates or replaces
// anything, and the children's IDs do not change. Before, the children were replaced: the engine did not
// derive their aliases from their parent's.
func TestPulumiNodejsAliasesKeepChildren(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), aliasProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir()}}
	run := func(args ...string) string {
		t.Helper()
		return clitest.MustRun(t, dir, opts, args...).Stdout
	}
	ids := func() [2]string {
		return [2]string{strings.TrimSpace(run("stack", "output", "a")), strings.TrimSpace(run("stack", "output", "b"))}
	}
	run("config", "set", "stage", "1")
	run("up", "--yes")
	first := ids()
	// The counts are pulumi's: its stack resource is one of the unchanged.
	stages := []struct{ stage, preview, up string }{
		{"2", "4 unchanged", "4 unchanged"},
		{"3", "+ 1 to create, 4 unchanged", "+ 1 created, 4 unchanged"}, // the new Outer
		{"4", "5 unchanged", "5 unchanged"},
	}
	for _, st := range stages {
		stage := st.stage
		run("config", "set", "stage", stage)
		for _, c := range []struct {
			args []string
			want string
		}{{[]string{"preview"}, st.preview}, {[]string{"up", "--yes"}, st.up}} {
			out := run(c.args...)
			if got := clitest.PulumiResources(out); got != c.want { // up previews first
				t.Errorf("stage %s: plinth %s: want the summary %q:\n%s", stage, strings.Join(c.args, " "), c.want, out)
			}
		}
		if diff := cmp.Diff(first, ids()); diff != "" {
			t.Errorf("stage %s: the children's IDs changed (-first +now):\n%s", stage, diff)
		}
	}
}
