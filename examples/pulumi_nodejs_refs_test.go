package examples_test

import (
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// refsProgram does, by stack: net creates a pet and exports its name and
// a secret, and with config readBack reads the pet back by URN (getResource);
// app and app2 read net's outputs through a StackReference; hook gives a
// pet the replaceWith option, which plinth does not support (it gave a
// delete hook until plinth ran those).
const refsProgram = `"use strict";
const pulumi = require("@pulumi/pulumi");
const plinth = require("./plinth");
const stack = pulumi.getStack();
if (stack === "net") {
    const a = new plinth.Pet("a", { length: 2 });
    exports.petName = a.name;
    exports.token = pulumi.secret("s3cret-net-token");
    if (new pulumi.Config().getBoolean("readBack")) {
        const b = new plinth.Pet("b", {}, { urn: "urn:pulumi:net::jsprog::plinth:random:Pet::a" });
        exports.readBack = b.name;
        exports.readBackID = b.id;
    }
} else if (stack === "hook") {
    const a = new plinth.Pet("a", { length: 2 });
    new plinth.Pet("b", { length: 2 }, { replaceWith: [a] });
} else {
    const net = new pulumi.StackReference("organization/jsprog/net");
    exports.copied = net.getOutput("petName");
    exports.tokenLength = net.getOutput("token").apply((t) => t.length);
}
`

// TestPulumiNodejsReferences: a Node.js program reads a resource of its
// stack back by URN (new Pet(name, {}, {urn})), and another stack's
// outputs through a StackReference served from plinth's own file backend,
// a secret output staying secret; a referenced stack sealed with another
// passphrase is refused, saying so; and a feature plinth does not have
// (replaceWith) fails with an error naming plinth, not one telling the
// user to update the Pulumi CLI.
//
// Before, the getResource invoke and the StackReference read went to a
// provider for package "pulumi", which plinth has not; and the SDK failed
// with "The Pulumi CLI does not support transforms. Please update the
// Pulumi CLI" (transforms and hooks are now served:
// TestPulumiNodejsTransforms, TestPulumiNodejsHooks,
// TestPulumiNodejsDeleteHooks, TestPulumiNodejsErrorHooks).
func TestPulumiNodejsReferences(t *testing.T) {
	modules := npmModules(t, pulumiNodejs)
	dir := jsProjectDir(t, modules, transpileSDK(t, modules), refsProgram)
	home := t.TempDir()
	opts := func(pass string) clitest.Options {
		return clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": pass, "PLINTH_HOME": home}}
	}
	run := func(pass string, args ...string) string {
		t.Helper()
		return strings.TrimSpace(clitest.MustRun(t, dir, opts(pass), args...).Stdout)
	}

	run("p", "--stack", "net", "up", "--yes")
	pet := run("p", "--stack", "net", "stack", "output", "petName")
	run("p", "--stack", "net", "config", "set", "readBack", "true")
	run("p", "--stack", "net", "up", "--yes")
	if got := run("p", "--stack", "net", "stack", "output", "readBack"); got != pet {
		t.Errorf("the pet read back by URN is named %q, want %q", got, pet)
	}
	if got := run("p", "--stack", "net", "stack", "output", "readBackID"); got != pet {
		t.Errorf("the pet read back by URN has ID %q, want its name %q", got, pet)
	}

	run("p", "--stack", "app", "up", "--yes")
	if got := run("p", "--stack", "app", "stack", "output", "copied"); got != pet {
		t.Errorf("app's copy of net's petName = %q, want %q", got, pet)
	}
	if got := run("p", "--stack", "app", "stack", "output", "tokenLength"); got != "[secret]" {
		t.Errorf("app's tokenLength, derived from net's secret token, shows %q, want [secret]", got)
	}
	if got := run("p", "--stack", "app", "stack", "output", "tokenLength", "--show-secrets"); got != "16" {
		t.Errorf("app's tokenLength = %q, want 16", got)
	}

	r := clitest.Run(t, dir, opts("another passphrase"), "--stack", "app2", "up", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), `reading stack "organization/jsprog/net"`) || !strings.Contains(r.Output(), "sealed with a passphrase other than stack app2's") {
		t.Errorf("app2 (another passphrase) referencing net: exit %d, want a failure naming net and the passphrase\n%s", r.Code, r.Output())
	}

	r = clitest.Run(t, dir, opts("p"), "--stack", "hook", "up", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), "replaceWith option, which plinth does not support") || strings.Contains(r.Output(), "update the Pulumi CLI") {
		t.Errorf("hook (the replaceWith option): exit %d, want a failure naming plinth and replaceWith\n%s", r.Code, r.Output())
	}
}
