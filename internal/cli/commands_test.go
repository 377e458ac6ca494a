package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

func run(t *testing.T, dir string, args ...string) clitest.Result {
	t.Helper()
	return clitest.MustRun(t, dir, clitest.Options{}, args...)
}

func fails(t *testing.T, dir string, want string, args ...string) {
	t.Helper()
	r := clitest.Run(t, dir, clitest.Options{}, args...)
	if r.Code != 1 || !strings.Contains(r.Output(), want) {
		t.Errorf("plinth %s: exit %d, want 1 saying %q\n%s", strings.Join(args, " "), r.Code, want, r.Output())
	}
}

func base(t *testing.T) string {
	t.Helper()
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	run(t, dir, "up", "--yes")
	return dir
}

func TestConfirmation(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	for _, c := range []struct {
		answer  string
		code    int
		created bool
	}{{"no\n", 1, false}, {"", 1, false}, {"yes\n", 0, true}} {
		r := clitest.Run(t, dir, clitest.Options{StdinTerminal: true, Stdin: c.answer}, "up")
		if r.Code != c.code || !strings.Contains(r.Stdout, "Do you want to perform this update? [yes/no]") {
			t.Errorf("answer %q: exit %d, want %d after asking\n%s", c.answer, r.Code, c.code, r.Output())
		}
		_, err := os.Stat(filepath.Join(dir, "out", "note.txt"))
		if created := err == nil; created != c.created {
			t.Errorf("answer %q: note created = %v, want %v", c.answer, created, c.created)
		}
	}
	// Nothing to change: nothing to confirm.
	if r := clitest.Run(t, dir, clitest.Options{StdinTerminal: true}, "up"); r.Code != 0 || strings.Contains(r.Stdout, "[yes/no]") {
		t.Errorf("up with no changes asked or failed: exit %d\n%s", r.Code, r.Output())
	}
}

func TestStacks(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	if out := run(t, dir, "stack", "ls").Stdout; !strings.Contains(out, "No stacks yet") {
		t.Errorf("stack ls of a new project:\n%s", out)
	}
	run(t, dir, "up", "--yes")
	run(t, dir, "stack", "init", "prod")
	fails(t, dir, "Stack exists", "stack", "init", "prod")
	run(t, dir, "config", "set", "count", "3")
	if _, err := os.Stat(filepath.Join(dir, "plinth.prod.yaml")); err != nil {
		t.Errorf("config of the selected stack prod is not in plinth.prod.yaml: %v", err)
	}
	ls := run(t, dir, "stack", "ls").Stdout
	want := []string{"NAME", "dev", "prod*"}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(ls), "\n") {
		got = append(got, strings.Fields(l)[0])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stack ls (-want +got):\n%s\n%s", diff, ls)
	}
	if !strings.Contains(strings.Join(strings.Fields(ls), " "), "dev 2 ") {
		t.Errorf("stack ls does not count dev's two resources:\n%s", ls)
	}
	run(t, dir, "up", "--yes")
	run(t, dir, "stack", "select", "dev")
	fails(t, dir, "No such stack", "stack", "select", "staging")
	fails(t, dir, "Stack has resources", "stack", "rm", "prod")
	run(t, dir, "destroy", "--yes", "--stack", "prod")
	run(t, dir, "stack", "rm", "prod")
	if _, err := os.Stat(filepath.Join(dir, "plinth.prod.yaml")); !os.IsNotExist(err) {
		t.Errorf("stack rm left plinth.prod.yaml (err %v)", err)
	}
	if out := run(t, dir, "stack", "ls").Stdout; strings.Contains(out, "prod") {
		t.Errorf("prod still listed after rm:\n%s", out)
	}
}

func TestConfig(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	run(t, dir, "config", "set", "count", "3")
	run(t, dir, "config", "set", "--secret", "base:apiKey", "s3cr3t")
	clitest.MustRun(t, dir, clitest.Options{Stdin: "piped\n"}, "config", "set", "plinth:unused")
	data, err := os.ReadFile(filepath.Join(dir, "plinth.dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cr3t") || !strings.Contains(string(data), "apiKey:\n    secure: ") {
		t.Errorf("plinth.dev.yaml does not hold the secret encrypted:\n%s", data)
	}
	if got := strings.TrimSpace(run(t, dir, "config", "get", "apiKey").Stdout); got != "s3cr3t" {
		t.Errorf("config get apiKey = %q", got)
	}
	var listed map[string]string
	if err := json.Unmarshal([]byte(run(t, dir, "config", "ls", "--json").Stdout), &listed); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"count": "3", "apiKey": "[secret]", "plinth:unused": "piped"}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("config ls (-want +got):\n%s", diff)
	}
	run(t, dir, "config", "rm", "plinth:unused")
	fails(t, dir, "Config key not set", "config", "get", "plinth:unused")
	run(t, dir, "up", "--yes")
	if r := run(t, dir, "stack", "output", "pet"); len(strings.Split(strings.TrimSpace(r.Stdout), "-")) != 3 {
		t.Errorf("count=3 did not make a three-word pet: %q", r.Stdout)
	}
}

func TestStateCommands(t *testing.T) {
	dir := base(t)
	ls := run(t, dir, "state", "ls").Stdout
	for _, w := range []string{"urn:pulumi:dev::base::plinth:random:Pet::pet", "urn:pulumi:dev::base::plinth:fs:File::note", "default provider"} {
		if !strings.Contains(ls, w) {
			t.Errorf("state ls does not list %q:\n%s", w, ls)
		}
	}
	show := run(t, dir, "state", "show", "note").Stdout
	if !strings.Contains(show, "Type:       plinth:fs:File") || !strings.Contains(show, `path: "out/note.txt"`) {
		t.Errorf("state show note:\n%s", show)
	}
	fails(t, dir, "No such resource", "state", "show", "nothing")

	export := run(t, dir, "state", "export").Stdout
	snapshot := filepath.Join(dir, ".plinth", "stacks", "dev", "snapshot.json")
	writeFile(t, snapshot, "{damaged")
	fails(t, dir, "Damaged state", "preview")
	clitest.MustRun(t, dir, clitest.Options{Stdin: export}, "state", "import", "--yes")
	if r := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("after importing the export the stack should need nothing: exit %d\n%s", r.Code, r.Output())
	}

	fails(t, dir, "refer to it", "state", "rm", "pet", "--yes")
	run(t, dir, "state", "rm", "note", "--yes")
	if out := run(t, dir, "state", "ls").Stdout; strings.Contains(out, "::note") {
		t.Errorf("state rm left the note:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "note.txt")); err != nil {
		t.Errorf("state rm deleted the real file: %v", err)
	}
	if out := run(t, dir, "state", "unlock").Stdout; !strings.Contains(out, "was not locked") {
		t.Errorf("state unlock of an unlocked stack: %s", out)
	}
	holdLock(t, dir)
	if out := run(t, dir, "state", "unlock").Stdout; !strings.Contains(out, "Broke the lock") || !strings.Contains(out, "(plinth up)") {
		t.Errorf("state unlock of a locked stack: %s", out)
	}
}

// TestRefreshAndDrift: a file changed outside plinth is found by refresh
// and put back by up.
func TestRefreshAndDrift(t *testing.T) {
	dir := base(t)
	note := filepath.Join(dir, "out", "note.txt")
	want := readFileT(t, note)
	writeFile(t, note, "changed by hand")
	r := run(t, dir, "refresh", "--yes")
	if !strings.Contains(r.Stdout, "~ refreshed note (plinth:fs:File)") || !strings.Contains(r.Stdout, "content") {
		t.Errorf("refresh did not report the drift:\n%s", r.Stdout)
	}
	p := clitest.Run(t, dir, clitest.Options{}, "preview", "--detailed-exitcode")
	if p.Code != 2 || !strings.Contains(p.Stdout, "~ update note") {
		t.Errorf("after the refresh, preview should update the note: exit %d\n%s", p.Code, p.Stdout)
	}
	run(t, dir, "up", "--yes")
	if got := readFileT(t, note); got != want {
		t.Errorf("up did not put the note back: %q, want %q", got, want)
	}
}

func TestImport(t *testing.T) {
	dir := base(t)
	other := filepath.Join(t.TempDir(), "other.txt")
	writeFile(t, other, "made elsewhere")
	r := run(t, dir, "import", "plinth:fs:File", "adopted", other, "--yes")
	for _, w := range []string{"= imported adopted (plinth:fs:File)", "resources:\n  adopted:\n    type: plinth:fs:File\n    properties:\n      content: made elsewhere\n      path: " + other} {
		if !strings.Contains(r.Stdout, w) {
			t.Errorf("import output does not say %q:\n%s", w, r.Stdout)
		}
	}
	if out := run(t, dir, "state", "ls").Stdout; !strings.Contains(out, "::adopted") {
		t.Errorf("the imported file is not in the state:\n%s", out)
	}
	fails(t, dir, "Invalid import", "import", "pulumi:providers:plinth", "p", "x", "--yes")
}

func TestPluginAndVersion(t *testing.T) {
	dir := t.TempDir()
	if out := run(t, dir, "plugin", "ls").Stdout; !strings.Contains(strings.Join(strings.Fields(out), " "), "plinth resource 0.1.0 builtin") {
		t.Errorf("plugin ls does not list the built-in provider:\n%s", out)
	}
	if out := run(t, dir, "version").Stdout; !strings.HasPrefix(out, "plinth 0.1.0-dev") {
		t.Errorf("version: %s", out)
	}
	fails(t, dir, "No program", "preview")
	fails(t, dir, "--color", "--color", "sometimes", "version")
}
