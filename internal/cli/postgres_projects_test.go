package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// project copies the base program into a directory of its own, named
// name, with the project name name.
func project(t *testing.T, name string) string {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	clitest.Edit(t, dir, "plinth.yaml", "name: base", "name: "+name)
	return dir
}

// TestTwoProjectsShareADatabase runs `up` on stack dev of two projects
// in one database: each sees only its own resources, and destroying one
// leaves the other's alone. Before stacks were kept per project, beta's
// up found alpha's resources in "its" stack and deleted them.
func TestTwoProjectsShareADatabase(t *testing.T) {
	opts := clitest.Options{Env: map[string]string{"PLINTH_BACKEND": pgtest.Database(t)}}
	alpha, beta := project(t, "alpha"), project(t, "beta")
	clitest.MustRun(t, alpha, opts, "up", "--yes")
	if out := clitest.MustRun(t, beta, opts, "stack", "ls").Stdout; !strings.HasPrefix(out, "No stacks yet") {
		t.Errorf("project beta lists alpha's stack as its own:\n%s", out)
	}
	up := clitest.MustRun(t, beta, opts, "up", "--yes")
	if strings.Contains(up.Stdout, "delet") {
		t.Errorf("beta's first up deletes something:\n%s", up.Output())
	}
	for dir, name := range map[string]string{alpha: "alpha", beta: "beta"} {
		ls := clitest.MustRun(t, dir, opts, "state", "ls").Stdout
		if n := strings.Count(ls, "urn:pulumi:dev::"+name+"::"); n != 3 || strings.Count(ls, "urn:pulumi:") != 3 {
			t.Errorf("project %s's state holds %d of its own resources, want 3 (provider, pet, note) and no others:\n%s", name, n, ls)
		}
	}
	clitest.MustRun(t, beta, opts, "destroy", "--yes")
	if _, err := os.Stat(filepath.Join(alpha, "out", "note.txt")); err != nil {
		t.Errorf("destroying beta's stack removed alpha's file: %v", err)
	}
	if out := clitest.MustRun(t, alpha, opts, "preview").Stdout; clitest.ChangeLines(out) != nil {
		t.Errorf("after beta's destroy, alpha's preview finds changes:\n%s", out)
	}
	if ls := clitest.MustRun(t, alpha, opts, "state", "ls").Stdout; strings.Count(ls, "urn:pulumi:dev::alpha::") != 3 {
		t.Errorf("after beta's destroy, alpha's state:\n%s", ls)
	}
}

// TestUnclaimedStackIsClaimed makes stack dev a stack an older plinth
// wrote that records no resources (its rows keyed by no project): up is
// refused saying how to claim it, state claim gives it to the project,
// and up then runs.
func TestUnclaimedStackIsClaimed(t *testing.T) {
	db := pgtest.Database(t)
	opts := clitest.Options{Env: map[string]string{"PLINTH_BACKEND": db}}
	alpha, beta := project(t, "alpha"), project(t, "beta")
	clitest.MustRun(t, alpha, opts, "up", "--yes")
	clitest.MustRun(t, alpha, opts, "destroy", "--yes")
	unclaim(t, db, "alpha")
	r := clitest.Run(t, beta, opts, "up", "--yes")
	for _, want := range []string{"error: Stack belongs to no project", "written by a plinth that kept stacks by name alone", "records no resources", "plinth state claim --stack dev"} {
		if r.Code != 1 || !strings.Contains(r.Stderr, want) {
			t.Errorf("up on an unclaimed stack: exit %d, want 1 saying %q\n%s", r.Code, want, r.Output())
		}
	}
	if out := clitest.MustRun(t, beta, opts, "state", "claim").Stdout; !strings.Contains(out, "Stack dev in ") {
		t.Errorf("state claim says:\n%s", out)
	}
	clitest.MustRun(t, beta, opts, "up", "--yes")
	if out := clitest.MustRun(t, alpha, opts, "stack", "ls").Stdout; !strings.HasPrefix(out, "No stacks yet") {
		t.Errorf("alpha lists beta's claimed stack:\n%s", out)
	}
}

// unclaim gives the project's rows the project ”, as the migration to
// stacks kept per project leaves the rows an older plinth wrote.
func unclaim(t *testing.T, db, project string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, table := range []string{"plinth_stacks", "plinth_snapshots", "plinth_journal", "plinth_secrets", "plinth_history", "plinth_locks"} {
		if _, err := conn.Exec(ctx, "UPDATE "+table+" SET project = '' WHERE project = $1", project); err != nil {
			t.Fatal(err)
		}
	}
}
