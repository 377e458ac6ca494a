//go:build unix

package pulumiyaml_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestLifecycle runs a Pulumi YAML program (config, variables, an
// fn::invoke, dependsOn, protect) through pulumi-language-yaml: up creates
// everything, a preview finds nothing to do, an edit to a property
// updates one resource, a config change replaces the two resources that
// read it and updates the one reading them, destroy is refused while a
// resource is protected and deletes everything once it is not.
func TestLifecycle(t *testing.T) {
	p := newProject(t, "lifecycle")

	up := p.run("up", "--yes")
	if diff := cmp.Diff("+ 5 created", summary(t, up.Output())); diff != "" {
		t.Errorf("first up (-want +got):\n%s\n%s", diff, up.Output())
	}
	if diff := cmp.Diff("hello-demo 962 from nowhere", p.readFile("out/note.txt")); diff != "" {
		t.Errorf("out/note.txt (-want +got):\n%s", diff)
	}

	pre := p.run("preview")
	if diff := cmp.Diff("5 unchanged", summary(t, pre.Output())); diff != "" {
		t.Errorf("no-change preview (-want +got):\n%s\n%s", diff, pre.Output())
	}
	if lines := clitest.PulumiStepLines(pre.Stdout); len(lines) != 0 {
		t.Errorf("the no-change preview shows steps: %q", lines)
	}

	p.edit("content: ${greeting}", "content: hi-${greeting}")
	up = p.run("up", "--yes", "--skip-preview")
	if diff := cmp.Diff("~ 1 updated, 4 unchanged", summary(t, up.Output())); diff != "" {
		t.Errorf("up after an edit (-want +got):\n%s\n%s", diff, up.Output())
	}
	want := []string{"~  plinth:fs:File note updating [diff: ~content]", "~  plinth:fs:File note updated [diff: ~content]"}
	if diff := cmp.Diff(want, withoutDurations(clitest.PulumiStepLines(up.Stdout))); diff != "" {
		t.Errorf("steps of the edit (-want +got):\n%s", diff)
	}

	p.run("config", "set", "prefix", "other")
	pre = p.run("preview")
	if diff := cmp.Diff("~ 1 to update, +-2 to replace, 3 changes. 2 unchanged", summary(t, pre.Output())); diff != "" {
		t.Errorf("preview of a config change (-want +got):\n%s\n%s", diff, pre.Output())
	}
	up = p.run("up", "--yes", "--skip-preview")
	if diff := cmp.Diff("~ 1 updated, +-2 replaced, 3 changes. 2 unchanged", summary(t, up.Output())); diff != "" {
		t.Errorf("up after a config change (-want +got):\n%s\n%s", diff, up.Output())
	}
	out := p.run("stack", "output", "--json").Stdout
	for _, w := range []string{`"petPrefix": "other"`, `"note": "hi-hello-other `} {
		if !strings.Contains(out, w) {
			t.Errorf("stack output lacks %s:\n%s", w, out)
		}
	}

	d := p.try("destroy", "--yes")
	if d.Code != 1 || !strings.Contains(d.Output(), "it is protected by the `protect` option") {
		t.Fatalf("destroy of a protected resource: exit %d, want 1 naming protect:\n%s", d.Code, d.Output())
	}
	p.edit("protect: true", "protect: false")
	p.run("up", "--yes", "--skip-preview")
	d = p.run("destroy", "--yes")
	if diff := cmp.Diff("- 5 deleted", summary(t, d.Output())); diff != "" {
		t.Errorf("destroy (-want +got):\n%s\n%s", diff, d.Output())
	}
	if ls := p.run("state", "ls").Stdout; strings.Contains(ls, "urn:") {
		t.Errorf("resources left after destroy:\n%s", ls)
	}
}

// withoutDurations drops the "(5ms)" of finished steps.
func withoutDurations(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if j := strings.Index(l, ") ("); j > 0 {
			if k := strings.Index(l[j+2:], ")"); k > 0 {
				l = l[:j+1] + l[j+2+k+1:]
			}
		}
		out[i] = l
	}
	return out
}

// TestMainDirectory: a project whose main names a directory runs the
// Main.yaml there, in that directory, and sees its project, stack and
// organization as pulumi would give them (the pulumi CLI's file backend
// also says "organization"). Relative paths of the built-in provider stay
// the project's.
func TestMainDirectory(t *testing.T) {
	p := newProject(t, "maindir")
	p.run("up", "--yes", "--skip-preview")
	var got map[string]string
	if err := json.Unmarshal([]byte(p.run("stack", "output", "--json").Stdout), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"where": filepath.Join(p.dir, "program"), "project": "yamlmain", "stack": "dev",
		"organization": "organization", "marker": "from yamlmain/dev"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stack outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("from yamlmain/dev", p.readFile("written-by-main.txt")); diff != "" {
		t.Errorf("written-by-main.txt (-want +got):\n%s", diff)
	}
	p.run("destroy", "--yes")
}
