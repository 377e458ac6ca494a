package pulumi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLifecycleBothWays runs testdata/lifecycle through create, update,
// replace, refresh after drift, the update that repairs the drift, and
// destroy: first with the built-in provider in process, then with
// pulumi-resource-plinth out of process. The in-process transcript must
// match testdata/lifecycle.golden (-update rewrites it), and the plugin's
// must match the in-process one.
func TestLifecycleBothWays(t *testing.T) {
	bothWays(t, "lifecycle.golden", lifecycle)
}

// bothWays runs a scenario in process, compares its transcript with a
// golden file under testdata (-update rewrites it), then runs it through
// the plugin and compares the two transcripts.
func bothWays(t *testing.T, golden string, scenario func(*testing.T, mode) string) {
	inproc := scenario(t, inProcess())
	compareGolden(t, filepath.Join("testdata", golden), inproc)
	plugin := scenario(t, outOfProcess())
	if diff := cmp.Diff(strings.Split(inproc, "\n"), strings.Split(plugin, "\n")); diff != "" {
		t.Errorf("the plugin run differs from the in-process run (-in-process +plugin):\n%s", diff)
	}
}

// lifecycle runs the scenario in one mode and returns its transcript. It
// checks on the way what the transcripts cannot show: which binary served
// the provider, and the files drift and destroy leave.
func lifecycle(t *testing.T, m mode) string {
	p := newProject(t, "lifecycle", m)
	tr := newTranscript(p)
	tr.stage("create", "up", "--yes", "--diff")
	checkCreated(t, p)
	p.run("config", "set", "greeting", "hi")
	tr.stage("update", "up", "--yes", "--diff")
	p.writeFile("data/input.txt", "second input\n")
	tr.stage("update from an asset and a function", "up", "--yes", "--diff")
	p.run("config", "set", "seed", "second")
	tr.stage("replace a seeded integer", "up", "--yes", "--diff")
	p.run("config", "set", "noteName", "renamed")
	tr.stage("replace a file by its path", "up", "--yes", "--diff")
	if _, err := os.Stat(p.path("out/note.txt")); !os.IsNotExist(err) {
		t.Errorf("%s: the replaced out/note.txt is still there (%v)", m.name, err)
	}
	p.writeFile("out/renamed.txt", "edited outside plinth\n")
	if err := os.Remove(p.path("out/secret.txt")); err != nil {
		t.Fatal(err)
	}
	tr.stage("refresh after drift", "refresh", "--yes")
	tr.stage("repair the drift", "up", "--yes", "--diff")
	checkRepaired(t, p)
	tr.stage("destroy", "destroy", "--yes")
	checkDestroyed(t, p)
	return tr.String()
}

// checkCreated: the mode's binary served the provider, the explicit
// provider wrote under its root, and a second look finds nothing to do.
func checkCreated(t *testing.T, p *project) {
	t.Helper()
	if got := strings.TrimSpace(p.run("stack", "output", "servedBy").Stdout); got != p.mode.server {
		t.Fatalf("%s: the provider ran in %s, want %s", p.mode.name, got, p.mode.server)
	}
	if got := p.readFile("data/written.txt"); got != "under the explicit provider's root" {
		t.Errorf("%s: data/written.txt = %q", p.mode.name, got)
	}
	if r := p.try("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("%s: preview after up = exit %d, want 0 (no changes)\n%s", p.mode.name, r.Code, r.Output())
	}
}

// checkRepaired: the up after the refresh put back the edited file and
// made the deleted one again.
func checkRepaired(t *testing.T, p *project) {
	t.Helper()
	if got := p.readFile("out/renamed.txt"); !strings.HasPrefix(got, "hi ") {
		t.Errorf("%s: after up, out/renamed.txt = %q, want the program's content back", p.mode.name, got)
	}
	if got := p.readFile("out/secret.txt"); got != "not-a-real-token" {
		t.Errorf("%s: after up, out/secret.txt = %q, want it made again", p.mode.name, got)
	}
}

// checkDestroyed: destroy removed every file the program made.
func checkDestroyed(t *testing.T, p *project) {
	t.Helper()
	if entries, _ := os.ReadDir(p.path("out")); len(entries) != 0 {
		t.Errorf("%s: destroy left %d files in out/", p.mode.name, len(entries))
	}
	if _, err := os.Stat(p.path("data/written.txt")); !os.IsNotExist(err) {
		t.Errorf("%s: destroy left data/written.txt (%v)", p.mode.name, err)
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is deliberate, run with -update:\n%s", path, diff)
	}
}
