package examples_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// transformProgram has a component whose transforms option rewrites its
// child pet (length 4, and its name an additional secret output), a stack
// transform that gives the pet "top" a prefix, and an invoke transform
// that changes getEnv's default. With config throw, a second stack
// transform throws for "top".
const transformProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");

pulumi.runtime.registerResourceTransform((args) => args.type === "plinth:random:Pet" && args.name === "top"
    ? { props: { ...args.props, prefix: "stack" }, opts: args.opts } : undefined);
if (new pulumi.Config().getBoolean("throw")) {
    pulumi.runtime.registerResourceTransform((args) => {
        if (args.name === "top") { throw new Error("pets named top are not allowed"); }
        return undefined;
    });
}
pulumi.runtime.registerInvokeTransform((args) => args.token === "plinth:index:getEnv"
    ? { args: { ...args.args, default: "from-transform" }, opts: args.opts } : undefined);

class Group extends pulumi.ComponentResource {
    constructor(name, opts) {
        super("jsprog:index:Group", name, {}, opts);
        this.pet = new plinth.Pet(name + "-pet", { length: 2 }, { parent: this });
        this.registerOutputs({});
    }
}
const g = new Group("g", { transforms: [(args) => args.type === "plinth:random:Pet"
    ? { props: { ...args.props, length: 4 }, opts: { ...args.opts, additionalSecretOutputs: ["name"] } } : undefined] });
const top = new plinth.Pet("top", { length: 2 });
exports.childWords = g.pet.name.apply((n) => n.split("-").length);
exports.topName = top.name;
exports.env = plinth.getEnv({ name: "PLINTH_TEST_SURELY_UNSET", default: "from-program" }).then((r) => r.value);
`

// TestPulumiNodejsTransforms: plinth calls a Node.js program's transforms
// through the Callbacks service its SDK serves, and registers what they
// return: a component's transforms option changes its child's property
// and adds an option (additionalSecretOutputs), a stack transform
// (registerResourceTransform) changes a property, and an invoke transform
// (registerInvokeTransform) changes a function's argument. A transform
// that throws fails the update (exit 1) with an error naming the resource
// and the program's message, and the state is unchanged. Before, plinth
// refused every transform as unsupported.
func TestPulumiNodejsTransforms(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), transformProgram)
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir()}}
	run := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(clitest.MustRun(t, dir, opts, args...).Stdout)
	}
	run("up", "--yes")
	outputs := map[string]string{}
	for _, k := range []string{"childWords", "topName", "env"} {
		outputs[k] = run("stack", "output", k, "--show-secrets")
	}
	if got := run("stack", "output", "childWords"); got != "[secret]" {
		t.Errorf("childWords, derived from a name the transform made secret, shows %q, want [secret]", got)
	}
	if outputs["childWords"] != "4" || !strings.HasPrefix(outputs["topName"], "stack-") || outputs["env"] != "from-transform" {
		t.Errorf("outputs %v: want childWords 4 (the component's transform), topName stack-… (the stack transform), env from-transform (the invoke transform)", outputs)
	}
	if out := run("preview"); !strings.Contains(out, "4 unchanged") {
		t.Errorf("a second preview is not all unchanged:\n%s", out)
	}

	before := run("state", "ls")
	run("config", "set", "throw", "true")
	r := clitest.Run(t, dir, opts, "up", "--yes")
	for _, want := range []string{"plinth:random:Pet::top", "pets named top are not allowed"} {
		if r.Code != 1 || !strings.Contains(r.Output(), want) {
			t.Errorf("up with a throwing transform: exit %d, want 1 and an error with %q\n%s", r.Code, want, r.Output())
		}
	}
	if n := strings.Count(r.Output(), "transform failed"); n != 1 {
		t.Errorf("the output reports %d failed transforms, want 1 (the program's end breaks the callbacks in flight: not worth reporting)\n%s", n, r.Output())
	}
	if diff := cmp.Diff(before, run("state", "ls")); diff != "" {
		t.Errorf("the failed up changed the state (-before +after):\n%s", diff)
	}
}
