//go:build unix

package pulumiyaml_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOptions runs a program with an explicit provider resource (used by
// a resource and an fn::invoke), parent, ignoreChanges,
// deleteBeforeReplace, replaceOnChanges, customTimeouts, retainOnDelete,
// version, a get, file and string assets and fn::readFile. A config change
// updates one file and replaces the one whose source changed; the
// replacement keeps the file (same path, same ID: plinth drops the old
// record instead of deleting it, where pulumi deletes the new file);
// destroy deletes what it manages, drops the read resource, and leaves
// the retained file in place. The read is not counted in the Resources
// blocks, as pulumi counts reads neither as changes nor as unchanged (see
// e2e/pulumicorpus's yaml-get).
func TestOptions(t *testing.T) {
	p := newProject(t, "options")
	up := p.run("up", "--yes")
	if diff := cmp.Diff("+ 6 created", summary(t, up.Output())); diff != "" { // the read is not counted, as by pulumi
		t.Errorf("first up (-want +got):\n%s\n%s", diff, up.Output())
	}
	out := p.run("stack", "output", "--json").Stdout
	for _, w := range []string{`"got": "<h1>hi</h1>\n"`, `"invoked": "<h1>hi</h1>\n"`, `"readme": "<h1>hi</h1>\n"`, `"str": 8`} {
		if !strings.Contains(out, w) {
			t.Errorf("stack output lacks %s:\n%s", w, out)
		}
	}
	if diff := cmp.Diff("6 unchanged", summary(t, p.run("preview").Output())); diff != "" { // the get counted nowhere, as by pulumi
		t.Errorf("no-change preview (-want +got):\n%s", diff)
	}

	p.run("config", "set", "label", "two")
	up = p.run("up", "--yes", "--skip-preview")
	if diff := cmp.Diff("~ 1 updated, +-1 replaced, 2 changes. 4 unchanged", summary(t, up.Output())); diff != "" {
		t.Errorf("up after a config change (-want +got):\n%s\n%s", diff, up.Output())
	}
	for file, want := range map[string]string{"out/seed.txt": "seed-two", "out/str.txt": "text-two"} {
		if diff := cmp.Diff(want, p.readFile(file)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", file, diff)
		}
	}

	// pulumi v3.259.0 destroying this program shows "- 6 deleted": the
	// record of the resource it read is dropped unseen and uncounted.
	d := p.run("destroy", "--yes")
	if diff := cmp.Diff("- 6 deleted", summary(t, d.Output())); diff != "" {
		t.Errorf("destroy (-want +got):\n%s\n%s", diff, d.Output())
	}
	for file, kept := range map[string]bool{"out/retained.txt": true, "out/seed.txt": false, "out/str.txt": false, "out/index.html": false, "site/index.html": true} {
		_, err := os.Stat(filepath.Join(p.dir, file))
		if got := err == nil; got != kept {
			t.Errorf("%s exists after destroy: %v, want %v", file, got, kept)
		}
	}
}
