package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == agent.Command { // the key agent keyagent_test.go starts
		os.Exit(agent.Main(os.Args[2]))
	}
	os.Exit(pgtest.Main(m))
}

// backends are the state backends the command line is tested on: the
// project's .plinth directory, and a PostgreSQL database.
func backends(t *testing.T) map[string]func(t *testing.T) map[string]string {
	return map[string]func(t *testing.T) map[string]string{
		"file":       func(*testing.T) map[string]string { return nil },
		"postgresql": func(t *testing.T) map[string]string { return map[string]string{"PLINTH_BACKEND": pgtest.Database(t)} },
	}
}

// TestHistoryAfterAMixOfOperations runs up, up (no change), a failing
// up, refresh, a declined destroy and destroy, and reads the history,
// newest first, on each backend.
func TestHistoryAfterAMixOfOperations(t *testing.T) {
	for name, env := range backends(t) {
		t.Run(name, func(t *testing.T) {
			opts := clitest.Options{Env: env(t)}
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, opts, "up", "--yes")
			clitest.MustRun(t, dir, opts, "up", "--yes")
			clitest.Edit(t, dir, "plinth.yaml", "path: out/note.txt", "path: /proc/nowhere/note.txt")
			if r := clitest.Run(t, dir, opts, "up", "--yes", "--skip-preview"); r.Code != 1 {
				t.Fatalf("an up that cannot write its file: exit %d\n%s", r.Code, r.Output())
			}
			clitest.Edit(t, dir, "plinth.yaml", "path: /proc/nowhere/note.txt", "path: out/note.txt")
			clitest.MustRun(t, dir, opts, "refresh", "--yes")
			declined := opts
			declined.Stdin, declined.StdinTerminal = "no\n", true
			clitest.Run(t, dir, declined, "destroy")
			clitest.MustRun(t, dir, opts, "destroy", "--yes")
			var ops []struct {
				Kind, Result, User, Host, Version, Started, Ended string
				Steps                                             map[string]int
			}
			out := clitest.MustRun(t, dir, opts, "stack", "history", "--json").Stdout
			if err := json.Unmarshal([]byte(out), &ops); err != nil {
				t.Fatalf("stack history --json: %v\n%s", err, out)
			}
			var got []string
			for _, op := range ops {
				got = append(got, op.Kind+" "+op.Result+" "+steps(op.Steps))
				if op.User == "" || op.Host == "" || op.Version == "" || op.Started == "" || op.Ended == "" {
					t.Errorf("an operation lacks who, when or the version: %+v", op)
				}
			}
			// The failed update counts only the steps that completed.
			want := []string{"destroy succeeded delete=2", "refresh succeeded same=2", "update failed same=1",
				"update succeeded same=2", "update succeeded create=2"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("history (-want +got):\n%s\n%s", diff, out)
			}
			text := clitest.MustRun(t, dir, opts, "stack", "history").Stdout
			if !strings.Contains(text, "KIND") || !strings.Contains(text, "2 delete") {
				t.Errorf("stack history:\n%s", text)
			}
		})
	}
}

func steps(m map[string]int) string {
	var parts []string
	for _, k := range []string{"create", "delete", "refresh", "replace", "same", "update"} {
		if m[k] > 0 {
			parts = append(parts, k+"="+itoa(m[k]))
		}
	}
	return strings.Join(parts, ",")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestMigrateRoundTrip moves a stack with a secret from the project's
// directory to PostgreSQL and on to another directory: each export is
// identical, the source files are untouched, and the copy works.
func TestMigrateRoundTrip(t *testing.T) {
	db := pgtest.Database(t)
	dir := base(t)
	env := map[string]string{"PLINTH_PASSPHRASE": "correct horse"}
	clitest.MustRun(t, dir, clitest.Options{Env: env}, "config", "set", "--secret", "token", "s3cret-value")
	clitest.MustRun(t, dir, clitest.Options{Env: env}, "up", "--yes")
	export := func(backend string) string {
		return clitest.MustRun(t, dir, clitest.Options{Env: env}, "--backend", backend, "state", "export").Stdout
	}
	before := export("file:.plinth")
	files := snapshotDir(t, filepath.Join(dir, ".plinth"))
	out := clitest.MustRun(t, dir, clitest.Options{Env: env}, "state", "migrate", "--to", db).Stdout
	if !strings.Contains(out, "matches") {
		t.Errorf("migrate says:\n%s", out)
	}
	if diff := cmp.Diff(before, export(db)); diff != "" {
		t.Errorf("export from PostgreSQL (-file +postgresql):\n%s", diff)
	}
	other := t.TempDir()
	clitest.MustRun(t, dir, clitest.Options{Env: env}, "--backend", db, "state", "migrate", "--to", "file:"+other)
	if diff := cmp.Diff(before, export("file:"+other)); diff != "" {
		t.Errorf("export after the round trip (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(files, snapshotDir(t, filepath.Join(dir, ".plinth"))); diff != "" {
		t.Errorf("migrate changed the source (-before +after):\n%s", diff)
	}
	r := clitest.Run(t, dir, clitest.Options{Env: env}, "state", "migrate", "--to", db)
	if r.Code != 1 || !strings.Contains(r.Stderr, "already holds stack dev") {
		t.Errorf("migrating onto a stack that exists: exit %d\n%s", r.Code, r.Output())
	}
	pg := clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "correct horse", "PLINTH_BACKEND": db}}
	if out := clitest.MustRun(t, dir, pg, "preview").Stdout; clitest.ChangeLines(out) != nil {
		t.Errorf("a preview on the migrated stack finds changes:\n%s", out)
	}
}

// snapshotDir returns every file under dir and its contents.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
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

// upInBackgroundWith starts `plinth up --yes` with opts and waits until
// the nap is in flight.
func upInBackgroundWith(t *testing.T, dir string, opts clitest.Options, args ...string) (chan os.Signal, *clitest.Result, chan struct{}) {
	t.Helper()
	opts.Interrupts = make(chan os.Signal, 2)
	watch := clitest.NewWatch()
	opts.Progress = watch
	done := make(chan struct{})
	var res clitest.Result
	go func() {
		defer close(done)
		res = clitest.Run(t, dir, opts, append([]string{"up", "--yes"}, args...)...)
	}()
	watch.WaitFor(t, "+ creating nap", done)
	return opts.Interrupts, &res, done
}

// TestTwoStacksOfOneDatabaseAtOnce runs `up` on two stacks of one
// database at the same time, and a third `up` on one of them, which is
// refused at once naming the holder.
func TestTwoStacksOfOneDatabaseAtOnce(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "slow"))
	opts := clitest.Options{Env: map[string]string{"PLINTH_BACKEND": pgtest.Database(t)}}
	stopA, a, doneA := upInBackgroundWith(t, dir, opts, "--stack", "a")
	stopB, b, doneB := upInBackgroundWith(t, dir, opts, "--stack", "b")
	third := clitest.Run(t, dir, opts, "up", "--yes", "--stack", "a")
	for _, want := range []string{"Stack is locked", "(plinth up)", "of user ", "on host "} {
		if third.Code != 1 || !strings.Contains(third.Stderr, want) {
			t.Errorf("a second up on stack a: exit %d, want 1 saying %q\n%s", third.Code, want, third.Output())
		}
	}
	for _, stop := range []chan os.Signal{stopA, stopB} {
		stop <- os.Interrupt
		stop <- os.Interrupt
	}
	<-doneA
	<-doneB
	for name, r := range map[string]*clitest.Result{"a": a, "b": b} {
		if !strings.Contains(r.Stdout, "Interrupted again") {
			t.Errorf("up on stack %s was not interrupted mid-nap:\n%s", name, r.Output())
		}
	}
}

// TestPostgresRestartDuringUp restarts the server while a step runs. The
// step finishes and is recorded once the server is back, no new step
// starts, the error says so; nothing is lost and the next up completes.
func TestPostgresRestartDuringUp(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "slow"))
	opts := clitest.Options{Env: map[string]string{"PLINTH_BACKEND": pgtest.Database(t)}}
	clitest.MustRun(t, dir, opts, "config", "set", "wait", "3s")
	_, first, done := upInBackgroundWith(t, dir, opts)
	if err := pgtest.Shared(t).Restart(); err != nil {
		t.Fatal(err)
	}
	<-done
	if first.Code != 1 || !strings.Contains(first.Stderr, "no new steps start") || !strings.Contains(first.Stdout, "+ created nap") {
		t.Errorf("up across a server restart: exit %d, want 1 with the nap created and no new steps\n%s", first.Code, first.Output())
	}
	t.Logf("the interrupted up:\n%s", first.Output())
	if out := clitest.MustRun(t, dir, opts, "state", "pending").Stdout; strings.Contains(out, "create") {
		t.Errorf("pending operations after the restart:\n%s", out)
	}
	second := clitest.MustRun(t, dir, opts, "up", "--yes")
	if !strings.Contains(second.Stdout, "+ created after") || strings.Contains(second.Stdout, "creating nap") {
		t.Errorf("the next up should create only what was left:\n%s", second.Output())
	}
}

// TestPostgresServerDown stops the server between two commands: up,
// preview, stack ls and stack output fail (exit 1) saying the server
// cannot be reached, at which host and port, and what to check, never
// showing the URL's password; once the server is back the stack is as
// the first up left it.
func TestPostgresServerDown(t *testing.T) {
	pgtest.Shared(t) // skips the test where there is no server
	c, err := pgtest.Start(pgtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	url, err := c.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	const password = "s3cret-pw" // the server (trust) never asks for it
	url = strings.Replace(url, "//plinth@", "//plinth:"+password+"@", 1)
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	opts := clitest.Options{Env: map[string]string{"PLINTH_BACKEND": url}}
	clitest.MustRun(t, dir, opts, "up", "--yes")
	pet := clitest.MustRun(t, dir, opts, "stack", "output", "pet").Stdout
	if err := c.StopServer(); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(c.Port())
	for _, args := range [][]string{{"up", "--yes"}, {"preview"}, {"stack", "ls"}, {"stack", "output", "pet"}} {
		r := clitest.Run(t, dir, opts, args...)
		for _, want := range []string{"PostgreSQL server at " + addr + " cannot be reached", "check that the server is running"} {
			if r.Code != 1 || !strings.Contains(r.Stderr, want) || strings.Contains(r.Output(), password) {
				t.Errorf("%s while the server is down: exit %d, want 1 saying %q without the password\n%s", strings.Join(args, " "), r.Code, want, r.Output())
			}
		}
	}
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	if got := clitest.MustRun(t, dir, opts, "stack", "output", "pet").Stdout; got != pet {
		t.Errorf("the stack's output once the server is back: %q, want %q as before", got, pet)
	}
	if r := clitest.MustRun(t, dir, opts, "preview"); strings.Contains(r.Stdout, "+ create") || strings.Contains(r.Stdout, "~ update") {
		t.Errorf("a preview once the server is back plans changes:\n%s", r.Output())
	}
}
