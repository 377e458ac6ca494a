package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// files returns every file under dir with its contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMissingSnapshotIsRefusedAndRestored deletes snapshot.json after an
// update: up must refuse and change nothing, and restore-backup must
// bring back a state with which preview sees no changes.
func TestMissingSnapshotIsRefusedAndRestored(t *testing.T) {
	dir := base(t)
	stackDir := filepath.Join(dir, ".plinth", "stacks", "dev")
	if err := os.Remove(filepath.Join(stackDir, "snapshot.json")); err != nil {
		t.Fatal(err)
	}
	before := files(t, dir)
	for _, args := range [][]string{{"up", "--yes"}, {"preview"}, {"destroy", "--yes"}, {"state", "ls"}} {
		r := clitest.Run(t, dir, clitest.Options{}, args...)
		for _, want := range []string{"Missing state", "snapshot.json.bak", "plinth state restore-backup --stack dev"} {
			if r.Code != 1 || !strings.Contains(r.Output(), want) {
				t.Errorf("plinth %s with snapshot.json missing: exit %d, want 1 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Output())
			}
		}
	}
	if diff := cmp.Diff(before, files(t, dir)); diff != "" {
		t.Errorf("commands refused for a missing snapshot changed files (-before +after):\n%s", diff)
	}
	out := run(t, dir, "state", "restore-backup").Stdout
	if !strings.Contains(out, "Restored stack dev from") || !strings.Contains(out, "2 resources recorded") {
		t.Errorf("restore-backup says:\n%s", out)
	}
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("preview after restore-backup: exit %d, want 0 (no changes)\n%s", r.Code, r.Output())
	}
	fails(t, dir, "reads cleanly", "state", "restore-backup")
}

func TestRestoreBackupWithoutBackup(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	fails(t, dir, "no backup snapshot", "state", "restore-backup")
}

// lockAs writes a lock for stack dev held by h.
func lockAs(t *testing.T, dir string, h state.LockHolder) {
	t.Helper()
	if _, err := file.New(filepath.Join(dir, ".plinth")).Lock(context.Background(), "dev", h); err != nil {
		t.Fatal(err)
	}
}

func TestUnlockChecksTheHolder(t *testing.T) {
	live := state.CurrentProcess("plinth up") // this test process: alive
	reused := live
	reused.ProcessStart++ // the same PID, started at another time
	elsewhere := live
	elsewhere.Host = "build-agent-9"
	tests := map[string]struct {
		holder state.LockHolder
		args   []string
		code   int
		want   string
		broken bool
	}{
		"live holder":           {holder: live, code: 1, want: "still running on this host"},
		"live holder, --force":  {holder: live, args: []string{"--force"}, code: 1, want: "still running on this host"},
		"reused PID":            {holder: reused, code: 0, want: "Broke the lock", broken: true},
		"another host":          {holder: elsewhere, code: 1, want: "unlock --force"},
		"another host, --force": {holder: elsewhere, args: []string{"--force"}, code: 0, want: "cannot check whether", broken: true},
	}
	if live.ProcessStart == 0 {
		delete(tests, "reused PID") // no start times on this system
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			lockAs(t, dir, tc.holder)
			r := clitest.Run(t, dir, clitest.Options{}, append([]string{"state", "unlock"}, tc.args...)...)
			if r.Code != tc.code || !strings.Contains(r.Output(), tc.want) {
				t.Errorf("exit %d, want %d saying %q\n%s", r.Code, tc.code, tc.want, r.Output())
			}
			_, err := os.Stat(filepath.Join(dir, ".plinth", "stacks", "dev", "lock"))
			if broken := err != nil; broken != tc.broken {
				t.Errorf("lock broken = %v, want %v", broken, tc.broken)
			}
		})
	}
}

func TestUnprotect(t *testing.T) {
	dir := base(t)
	ctx := context.Background()
	b := file.New(filepath.Join(dir, ".plinth"))
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: blind{}})
	if err != nil {
		t.Fatal(err)
	}
	note := s.Base().Find("urn:pulumi:dev::base::plinth:fs:File::note").Clone()
	old := note.Clone()
	note.Protect = true
	if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpSame, Old: old, New: note}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "plinth.yaml"), strings.Replace(readFile(t, filepath.Join(dir, "plinth.yaml")), "  note:", "  gone:", 1))
	fails(t, dir, "protect", "up", "--yes")
	out := run(t, dir, "state", "unprotect", "--yes", "note").Stdout
	if !strings.Contains(out, "Cleared the protect option of urn:pulumi:dev::base::plinth:fs:File::note") {
		t.Errorf("unprotect says:\n%s", out)
	}
	run(t, dir, "up", "--yes")
	if ls := run(t, dir, "state", "ls").Stdout; strings.Contains(ls, "::note") {
		t.Errorf("the unprotected resource is still in the state after up:\n%s", ls)
	}
}

// blind opens no secrets: the base program has none.
type blind struct{}

func (blind) Seal([]byte) (string, error) { return "", os.ErrInvalid }
func (blind) Open(string) ([]byte, error) { return nil, os.ErrInvalid }

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRolledBackSnapshotIsRefused copies the snapshot of the first update
// back after a second update created another file: preview and up must
// refuse, naming both serials, rather than plan to create the file again;
// restore-backup refuses the backup (as old), and accept-rollback lists
// the update it forgets and lets commands run again.
func TestRolledBackSnapshotIsRefused(t *testing.T) {
	dir := rolledBack(t)
	before := files(t, dir)
	for _, args := range [][]string{{"preview"}, {"up", "--yes"}, {"state", "ls"}} {
		r := clitest.Run(t, dir, clitest.Options{}, args...)
		for _, want := range []string{"State rolled back", "is at serial 1, sequence", "records serial 2, sequence", "plinth state accept-rollback --stack dev", "create 1"} {
			if r.Code != 1 || !strings.Contains(r.Output(), want) {
				t.Errorf("plinth %s on a rolled-back snapshot: exit %d, want 1 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Output())
			}
		}
	}
	if diff := cmp.Diff(before, files(t, dir)); diff != "" {
		t.Errorf("commands refused for a rolled-back snapshot changed files (-before +after):\n%s", diff)
	}
	fails(t, dir, "older than the update history", "state", "restore-backup")
	out := run(t, dir, "state", "accept-rollback", "--yes").Stdout
	if !strings.Contains(out, "Stack dev accepted at serial 3") || !strings.Contains(out, "(succeeded): create 1") {
		t.Errorf("accept-rollback says:\n%s", out)
	}
	r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode")
	if r.Code != 2 || !strings.Contains(r.Output(), "extra") {
		t.Errorf("preview after accept-rollback: exit %d, want 2 planning to create extra\n%s", r.Code, r.Output())
	}
}

// rolledBack runs two updates, the second creating out/extra.txt, and
// copies the first one's snapshot back.
func rolledBack(t *testing.T) string {
	t.Helper()
	dir := base(t)
	snapshot := filepath.Join(dir, ".plinth", "stacks", "dev", "snapshot.json")
	first, err := os.ReadFile(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(dir, "plinth.yaml")
	src, err := os.ReadFile(program)
	if err != nil {
		t.Fatal(err)
	}
	extra := "  extra:\n    type: plinth:fs:File\n    properties: { path: out/extra.txt, content: extra }\n"
	src = []byte(strings.Replace(string(src), "outputs:\n", extra+"outputs:\n", 1))
	if err := os.WriteFile(program, src, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "up", "--yes")
	if err := os.WriteFile(snapshot, first, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRestoreOlderBackupWithForce restores, with --force, a backup older
// than the history: it must warn, listing the update it forgets.
func TestRestoreOlderBackupWithForce(t *testing.T) {
	dir := rolledBack(t)
	r := run(t, dir, "state", "restore-backup", "--force")
	for _, want := range []string{"Older than the history", "restoring it forgot", "(succeeded): create 1", "plinth import"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("restore-backup --force of an older backup: standard error lacks %q\n%s", want, r.Output())
		}
	}
	run(t, dir, "preview")
}
