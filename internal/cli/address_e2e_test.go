package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestTerraformAddresses: in a Terraform configuration --target and
// --exclude take addresses (a resource's every instance, a module call
// and all below it), and state ls lists addresses.
func TestTerraformAddresses(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "terraform", "targets"))
	run := func(args ...string) string { return clitest.MustRun(t, dir, goldenOptions, args...).Stdout }
	if out := run("up", "--yes", "--skip-preview", "--target", "terraform_data.copy"); !strings.Contains(out, "Resources: 2 added") {
		t.Errorf("--target terraform_data.copy did not create its two instances:\n%s", out)
	}
	if out := run("up", "--yes", "--skip-preview", "--target", "module.site"); !strings.Contains(out, "Resources: 2 added") || strings.Contains(out, "terraform_data.solo") {
		t.Errorf("--target module.site did not create just the module's two pages:\n%s", out)
	}
	out := run("state", "ls")
	for _, want := range []string{"ADDRESS", "terraform_data.copy[0]", "terraform_data.copy[1]", `module.site["a"].terraform_data.page`, `module.site["b"].terraform_data.page`} {
		if !strings.Contains(out, want) {
			t.Errorf("state ls does not list %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "urn:") || strings.Contains(out, "terraform_data.solo") || strings.Contains(out, "default") {
		t.Errorf("state ls lists URNs, an untargeted resource or default providers:\n%s", out)
	}
	if out := run("destroy", "--yes", "--skip-preview", "--target", `module.site["a"]`); !strings.Contains(out, "Resources: 1 destroyed") {
		t.Errorf(`destroy --target module.site["a"] did not destroy its page alone:\n%s`, out)
	}
	if out := run("up", "--yes", "--skip-preview", "--exclude", "module.site"); !strings.Contains(out, "Resources: 1 added") || strings.Contains(out, "module.site") {
		t.Errorf("up --exclude module.site did not create terraform_data.solo alone:\n%s", out)
	}
	r := clitest.Run(t, dir, goldenOptions, "preview", "--target", "terraform_data.nope")
	if r.Code != 1 || !strings.Contains(r.Stderr, "--target terraform_data.nope names no resource") {
		t.Errorf("an unknown address: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
}

// TestTerraformTargetingWarns: a plan or an apply limited by --target
// ends with terraform's warnings ("Resource targeting is in effect",
// "Applied changes may be incomplete"), and one without --target, or
// limited by --exclude alone, has neither.
func TestTerraformTargetingWarns(t *testing.T) {
	const plan, apply = "warning: Resource targeting is in effect", "warning: Applied changes may be incomplete"
	dir := clitest.CopyDir(t, filepath.Join("testdata", "terraform", "targets"))
	tests := []struct {
		args        []string
		plan, apply bool
	}{
		{args: []string{"preview", "--target", "terraform_data.copy"}, plan: true},
		{args: []string{"up", "--yes", "--target", "terraform_data.copy"}, plan: true, apply: true},
		{args: []string{"up", "--yes", "--skip-preview", "--exclude", "module.site"}},
		{args: []string{"preview"}},
		{args: []string{"up", "--yes"}},
	}
	for _, tc := range tests {
		out := clitest.MustRun(t, dir, goldenOptions, tc.args...).Stdout
		if got := strings.Contains(out, plan); got != tc.plan {
			t.Errorf("plinth %s: plan warning shown %v, want %v:\n%s", strings.Join(tc.args, " "), got, tc.plan, out)
		}
		if got := strings.Contains(out, apply); got != tc.apply {
			t.Errorf("plinth %s: apply warning shown %v, want %v:\n%s", strings.Join(tc.args, " "), got, tc.apply, out)
		}
	}
}
