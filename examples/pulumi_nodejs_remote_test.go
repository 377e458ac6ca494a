package examples_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// remoteProgram uses e2e/component's remote component comp:index:Site
// (one comp:index:Item child per name in items, its ID zone/name) with a
// transform of its own that moves its items to zone west, and a stack
// transform that appends "-stack" to every item's label.
const remoteProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
class Site extends pulumi.ComponentResource {
    constructor(name, args, opts) { super("comp:index:Site", name, args, opts, true); this.registerOutputs(); }
}
pulumi.runtime.registerResourceTransform((args) => args.type === "comp:index:Item"
    ? { props: { ...args.props, label: args.props.label + "-stack" }, opts: args.opts } : undefined);
new Site("web", { items: ["a"], label: "one", zone: "east" }, {
    transforms: [(args) => args.type === "comp:index:Item" ? { props: { ...args.props, zone: "west" }, opts: args.opts } : undefined],
});
`

// TestPulumiNodejsRemoteComponentTransforms: a remote component's
// children, registered by its provider's Construct, get the program's
// transforms as Pulumi applies them: the component's own (its item is
// made in zone west, not east) and the stack's. Before, the provider
// registered them through a monitor of its own, and no transform applied.
func TestPulumiNodejsRemoteComponentTransforms(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), remoteProgram)
	plugins := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(plugins, "pulumi-resource-comp"), "github.com/plinth-iac/plinth/e2e/component/internal/pulumi-resource-comp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the component plugin: %v\n%s", err, out)
	}
	opts := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "p", "PLINTH_HOME": t.TempDir(), "PLINTH_PLUGIN_PATH": plugins}}
	clitest.MustRun(t, dir, opts, "up", "--yes")
	ls := clitest.MustRun(t, dir, opts, "state", "ls").Stdout
	if !strings.Contains(ls, "comp:index:Site$comp:index:Item::a") || !strings.Contains(ls, "west/a") {
		t.Errorf("the item is not in zone west (the component's transform did not apply):\n%s", ls)
	}
	show := clitest.MustRun(t, dir, opts, "state", "show", "urn:pulumi:dev::jsprog::comp:index:Site$comp:index:Item::a").Stdout
	if !strings.Contains(show, "one-stack") {
		t.Errorf("the item's label is not one-stack (the stack transform did not apply):\n%s", show)
	}
	clitest.MustRun(t, dir, opts, "destroy", "--yes")
}
