package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

const extraURN = "urn:pulumi:dev::base::plinth:fs:File::extra"

// crashDuring leaves the state as a plinth killed during op on r would:
// its Begin recorded and no End.
func crashDuring(t *testing.T, dir string, op state.Op, r func(s *state.Session) (old, nu *state.Resource)) {
	t.Helper()
	ctx := context.Background()
	b := file.New(filepath.Join(dir, ".plinth"))
	c, _, err := secrets.Open(ctx, b, "dev", secrets.Options{KDF: clitest.CheapKDF})
	if err != nil {
		t.Fatal(err)
	}
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c, Command: "plinth up"})
	if err != nil {
		t.Fatal(err)
	}
	old, nu := r(s)
	if err := s.Record(ctx, &state.Entry{Step: 1, Kind: state.Begin, Op: op, Old: old, New: nu, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// crashDuringCreate leaves the state as a plinth killed while creating
// the extra file would: its Begin recorded and no End. If made is set
// the file exists, as if the create happened.
func crashDuringCreate(t *testing.T, dir string, made bool) {
	t.Helper()
	crashDuring(t, dir, state.OpCreate, func(s *state.Session) (*state.Resource, *state.Resource) {
		prov := s.Base().Find("urn:pulumi:dev::base::pulumi:providers:plinth::default")
		if prov == nil {
			t.Fatal("the state has no default provider")
		}
		return nil, &state.Resource{URN: extraURN, Type: "plinth:fs:File", Custom: true,
			Provider: state.ProviderRef(prov.URN, prov.ID),
			Inputs: resource.Object{"path": resource.NewString("out/extra.txt"),
				"content": resource.NewString("made before the crash"), "permissions": resource.NewString("0644")}}
	})
	if made {
		writeFile(t, filepath.Join(dir, "out", "extra.txt"), "made before the crash")
	}
}

func TestPendingCreate(t *testing.T) {
	run := func(t *testing.T, dir string, args ...string) clitest.Result {
		t.Helper()
		return clitest.MustRun(t, dir, clitest.Options{}, args...)
	}
	setup := func(t *testing.T, made bool) string {
		dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
		run(t, dir, "up", "--yes")
		copyProgram("../pending/plinth.yaml")(t, dir)
		crashDuringCreate(t, dir, made)
		if out := run(t, dir, "state", "pending").Stdout; !strings.Contains(out, "create "+extraURN) {
			t.Fatalf("state pending does not list the interrupted create:\n%s", out)
		}
		r := clitest.Run(t, dir, clitest.Options{}, "up", "--yes")
		if r.Code != 1 || !strings.Contains(r.Stderr, "Pending operations") || !strings.Contains(r.Stderr, "plinth state pending") {
			t.Fatalf("up with a pending create: exit %d, want 1 pointing at state pending\n%s", r.Code, r.Output())
		}
		return dir
	}
	t.Run("the create happened: import its ID", func(t *testing.T) {
		dir := setup(t, true)
		abs := filepath.Join(dir, "out", "extra.txt")
		out := run(t, dir, "state", "pending", "--import", extraURN, abs, "--yes").Stdout
		if !strings.Contains(out, "refreshed extra") {
			t.Errorf("the import was not followed by a refresh:\n%s", out)
		}
		if show := run(t, dir, "state", "show", "extra").Stdout; !strings.Contains(show, "sha256:") || !strings.Contains(show, "ID:       "+abs) {
			t.Errorf("the imported file's outputs were not read:\n%s", show)
		}
		// The refresh reads with the outputs the state had (none), so the
		// file provider cannot tell content from source; up settles it,
		// and then nothing is left to do.
		run(t, dir, "up", "--yes")
		if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
			t.Errorf("after the import and an update the program should match the state: exit %d\n%s", r.Code, r.Output())
		}
		if got := readFileT(t, abs); got != "made before the crash" {
			t.Errorf("extra.txt = %q", got)
		}
	})
	t.Run("the create did not happen: clear it", func(t *testing.T) {
		dir := setup(t, false)
		copyProgram("malformed.yaml")(t, dir) // clearing needs no program
		run(t, dir, "state", "pending", "--clear", extraURN, "--yes")
		copyProgram("../pending/plinth.yaml")(t, dir)
		if out := run(t, dir, "state", "pending").Stdout; !strings.Contains(out, "no pending operations") {
			t.Errorf("the pending operation is still there:\n%s", out)
		}
		run(t, dir, "up", "--yes")
		if _, err := os.Stat(filepath.Join(dir, "out", "extra.txt")); err != nil {
			t.Errorf("up after clearing did not create the file: %v", err)
		}
	})
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPreviewWarnsOfAPendingCreate: preview over a create an interrupted
// run left pending succeeds but says so, under the create it plans and
// after the plan, with the commands that resolve it; up and destroy
// refuse before previewing (and so before asking).
func TestPreviewWarnsOfAPendingCreate(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.MustRun(t, dir, clitest.Options{}, "up", "--yes")
	copyProgram("../pending/plinth.yaml")(t, dir)
	crashDuringCreate(t, dir, false)

	out := clitest.MustRun(t, dir, clitest.Options{}, "preview").Stdout
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "extra") || strings.Contains(l, "Pending operations") {
			got = append(got, strings.TrimSpace(l))
		}
	}
	want := []string{
		"+ create extra (plinth:fs:File)",
		"warning: " + extraURN + ": its create by an interrupted run is pending and may have happened: see Pending operations below",
		"warning: Pending operations",
		"- a create of " + extraURN + " may have happened; run `plinth state pending` to import its ID or clear it",
		"plinth state pending --import " + extraURN + " ID   (it was made, with that ID)",
		"plinth state pending --clear " + extraURN + "   (it was not)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("preview's lines about the pending create (-want +got):\n%s\n%s", diff, out)
	}

	const noteURN = "urn:pulumi:dev::base::plinth:fs:File::note"
	crashDuring(t, dir, state.OpUpdate, func(s *state.Session) (*state.Resource, *state.Resource) {
		old := s.Base().Find(noteURN)
		nu := *old
		nu.Inputs = resource.Object{"path": resource.NewString("out/note.txt"), "content": resource.NewString("changed"), "permissions": resource.NewString("0644")}
		return old, &nu
	})
	out = clitest.MustRun(t, dir, clitest.Options{}, "preview").Stdout
	if want := "warning: an update of " + noteURN + " may have happened; run `plinth refresh` to read its current state"; !strings.Contains(out, want) {
		t.Errorf("preview over an interrupted update does not say %q:\n%s", want, out)
	}

	for _, args := range [][]string{{"up"}, {"destroy"}} {
		r := clitest.Run(t, dir, clitest.Options{StdinTerminal: true, Stdin: "yes\n"}, args...)
		if r.Code != 1 || !strings.Contains(r.Stderr, "Pending operations") || strings.Contains(r.Output(), "Previewing") || strings.Contains(r.Output(), "Do you want") {
			t.Errorf("%s with a pending create: exit %d, want 1 saying Pending operations before any preview or question\n%s", args[0], r.Code, r.Output())
		}
	}
}
