package cli_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// recorded maps each address `state ls` lists to its ID and notes.
func recorded(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls").Stdout
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n")[1:] {
		if f := strings.Fields(l); len(f) >= 2 {
			m[f[0]] = strings.Join(f[1:], " ")
		}
	}
	return m
}

func terraformTargets(t *testing.T) (string, func(args ...string) string) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "terraform", "targets"))
	run := func(args ...string) string { return clitest.MustRun(t, dir, clitest.Options{}, args...).Output() }
	run("up", "--yes", "--skip-preview")
	return dir, run
}

// TestStateTaint: taint marks resources (an address names every
// instance), preview shows them replaced because tainted, up replaces
// them and clears the mark; untaint clears it.
func TestStateTaint(t *testing.T) {
	dir, run := terraformTargets(t)
	before := recorded(t, dir)
	if out := run("state", "taint", "terraform_data.copy", "terraform_data.solo"); !strings.Contains(out, "Resource terraform_data.copy[1] has been tainted.") {
		t.Errorf("taint said:\n%s", out)
	}
	run("state", "untaint", "terraform_data.copy[1]")
	if got := recorded(t, dir)["terraform_data.solo"]; !strings.Contains(got, "tainted") {
		t.Errorf("state ls does not show terraform_data.solo tainted: %q", got)
	}
	out := run("preview")
	for _, want := range []string{"# terraform_data.solo is tainted, so must be replaced", "# terraform_data.copy[0] is tainted, so must be replaced", "Plan: 2 to add, 0 to change, 2 to destroy."} {
		if !strings.Contains(out, want) {
			t.Errorf("preview does not say %q:\n%s", want, out)
		}
	}
	run("up", "--yes", "--skip-preview")
	after := recorded(t, dir)
	for addr, replaced := range map[string]bool{"terraform_data.solo": true, "terraform_data.copy[0]": true, "terraform_data.copy[1]": false} {
		if (after[addr] != before[addr]) != replaced || strings.Contains(after[addr], "tainted") {
			t.Errorf("%s: before %q, after up %q; replaced should be %v and the taint gone", addr, before[addr], after[addr], replaced)
		}
	}
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("after the replacement the preview wants changes: exit %d\n%s", r.Code, r.Output())
	}
}

// TestUpReplace: --replace forces the replacement of what it names, in
// preview and up, recording nothing for later runs.
func TestUpReplace(t *testing.T) {
	dir, run := terraformTargets(t)
	before := recorded(t, dir)
	if out := run("preview", "--replace", "terraform_data.copy[1]"); !strings.Contains(out, "# terraform_data.copy[1] will be replaced, as requested") {
		t.Errorf("preview --replace:\n%s", out)
	}
	run("up", "--yes", "--replace", `module.site["a"]`, "--replace", "terraform_data.copy[1]")
	after := recorded(t, dir)
	for addr := range before {
		want := addr == "terraform_data.copy[1]" || addr == `module.site["a"].terraform_data.page`
		if (after[addr] != before[addr]) != want {
			t.Errorf("%s: before %q, after %q; replaced should be %v", addr, before[addr], after[addr], want)
		}
	}
	r := clitest.Run(t, dir, clitest.Options{}, "up", "--yes", "--replace", "terraform_data.nope")
	if r.Code != 1 || !strings.Contains(r.Output(), "--replace terraform_data.nope names no resource") {
		t.Errorf("--replace of an unknown address: exit %d\n%s", r.Code, r.Output())
	}
}

// TestStateMv: mv renames a resource, every instance of one, a whole
// module, and into and out of a module; the preview of the unchanged
// configuration then wants no changes once moved back; moves onto a
// recorded resource or to another type are refused.
func TestStateMv(t *testing.T) {
	dir, run := terraformTargets(t)
	before := recorded(t, dir)
	moves := [][2]string{
		{"terraform_data.solo", "terraform_data.single"},
		{"terraform_data.copy", "terraform_data.twin"},
		{"module.site", "module.web"},
		{"terraform_data.single", `module.web["a"].terraform_data.solo`},
	}
	for _, m := range moves {
		run("state", "mv", m[0], m[1])
	}
	moved := recorded(t, dir)
	for _, want := range []string{"terraform_data.twin[0]", "terraform_data.twin[1]", `module.web["b"].terraform_data.page`, `module.web["a"].terraform_data.solo`} {
		if _, ok := moved[want]; !ok {
			t.Errorf("after the moves state ls does not list %s: %v", want, moved)
		}
	}
	if moved[`module.web["a"].terraform_data.solo`] != before["terraform_data.solo"] {
		t.Errorf("the moved resource's ID changed: %q, was %q", moved[`module.web["a"].terraform_data.solo`], before["terraform_data.solo"])
	}
	for i := len(moves) - 1; i >= 0; i-- {
		run("state", "mv", moves[i][1], moves[i][0])
	}
	if diff := cmp.Diff(before, recorded(t, dir)); diff != "" {
		t.Errorf("moved back, the state differs (-before +after):\n%s", diff)
	}
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("moved back, the preview wants changes: exit %d\n%s", r.Code, r.Output())
	}
	fails(t, dir, "Destination exists", "state", "mv", "terraform_data.solo", "terraform_data.copy[0]")
	fails(t, dir, "must name a resource of the same type", "state", "mv", "terraform_data.solo", "random_pet.solo")
	fails(t, dir, "No such resource", "state", "mv", "terraform_data.nope", "terraform_data.x")
}

// TestStateRmMany: rm takes several addresses and URNs at once.
func TestStateRmMany(t *testing.T) {
	dir, run := terraformTargets(t)
	urn := "urn:pulumi:dev::" + filepath.Base(dir) + "::terraform:index:terraform_data::terraform_data.solo"
	run("state", "rm", "--yes", "terraform_data.copy", urn)
	var left []string
	for addr := range recorded(t, dir) {
		left = append(left, addr)
	}
	if diff := cmp.Diff([]string{`module.site["a"].terraform_data.page`, `module.site["b"].terraform_data.page`}, sorted(left)); diff != "" {
		t.Errorf("after state rm (-want +got):\n%s", diff)
	}
}

// TestStateSurgeryRefusedWhileLocked: each edit is refused, changing
// nothing, while another operation holds the stack's lock.
func TestStateSurgeryRefusedWhileLocked(t *testing.T) {
	dir, _ := terraformTargets(t)
	holdLock(t, dir)
	before := projectFiles(t, dir)
	for _, args := range [][]string{
		{"state", "taint", "terraform_data.solo"},
		{"state", "untaint", "terraform_data.solo"},
		{"state", "mv", "terraform_data.solo", "terraform_data.x"},
		{"state", "rm", "--yes", "terraform_data.solo", "terraform_data.copy"},
	} {
		fails(t, dir, "Stack is locked", args...)
	}
	if diff := cmp.Diff(before, projectFiles(t, dir)); diff != "" {
		t.Errorf("refused edits changed files:\n%s", diff)
	}
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
