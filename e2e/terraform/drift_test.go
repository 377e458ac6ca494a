package terraform

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDrift changes two files behind plinth's back, one deleted and one
// edited: refresh finds both gone (the local provider treats a file whose
// content no longer matches as gone), and up makes them again.
func TestDrift(t *testing.T) {
	t.Parallel()
	p := realProject(t, "drift")
	p.must("up", "--yes")
	want := map[string]string{
		"out/gone.txt":   "deleted outside plinth\n",
		"out/edited.txt": "edited outside plinth\n",
		"out/kept.txt":   "left alone\n",
	}
	if err := os.Remove(p.path("out/gone.txt")); err != nil {
		t.Fatal(err)
	}
	p.write("out/edited.txt", "someone was here\n")
	p.noChanges("before the refresh (a preview does not read the world)")

	r := p.must("refresh", "--yes")
	wantRefreshed := []string{
		"- refreshed edited (local:index:local_file): deleted outside plinth; removed from the state",
		"- refreshed gone (local:index:local_file): deleted outside plinth; removed from the state",
		"refreshed kept (local:index:local_file)",
	}
	if diff := cmp.Diff(wantRefreshed, doneLines(r.Stdout), sorted); diff != "" {
		t.Errorf("refresh (-want +got):\n%s\n%s", diff, r.Stdout)
	}
	for _, name := range []string{"gone", "edited"} {
		if show := p.run("state", "show", name); show.Code == 0 {
			t.Errorf("after the refresh the state still records %s:\n%s", name, show.Stdout)
		}
	}
	if got := p.read("out/edited.txt"); got != "someone was here\n" {
		t.Errorf("refresh changed out/edited.txt to %q; it must change nothing in the world", got)
	}

	p.expectPreview("after the refresh", "+ create edited (local:index:local_file)", "+ create gone (local:index:local_file)")
	p.must("up", "--yes")
	for f, content := range want {
		if got := p.read(f); got != content {
			t.Errorf("after up, %s = %q, want %q", f, got, content)
		}
	}
	p.noChanges("after up restored the files")
	p.must("destroy", "--yes")
	p.destroyed("out/gone.txt", "out/edited.txt", "out/kept.txt")
}
