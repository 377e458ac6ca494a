package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestErrorSummaries: every runtime error gets a summary that says what
// kind of problem it is, never the bare "error: Error" these used to
// get.
func TestErrorSummaries(t *testing.T) {
	withPassphrase := map[string]string{"PLINTH_PASSPHRASE": "right"}
	cases := map[string]struct {
		env   map[string]string // for the first up
		apply func(t *testing.T, dir string)
		run   func(t *testing.T, dir string) clitest.Result
		want  string
		// also is another summary as good as want.
		also string
	}{
		"passphrase unset": {env: withPassphrase, run: cmd("preview"), want: "error: Cannot open the stack's secrets", also: "error: Passphrase needed"},
		"damaged key": {
			apply: func(t *testing.T, dir string) {
				writeFile(t, filepath.Join(dir, ".plinth", "stacks", "dev", "secrets.json"), `{"version":1,"key":"zz"}`)
			},
			run: cmd("preview"), want: "error: Cannot open the stack's secrets"},
		"destroy --target with dependents": {
			run:  cmd("destroy", "--yes", "--target", "urn:pulumi:dev::base::plinth:random:Pet::pet"),
			want: "error: Preview of destroy failed"},
		"destroy --target with dependents, no preview": {
			run:  cmd("destroy", "--yes", "--skip-preview", "--target", "urn:pulumi:dev::base::plinth:random:Pet::pet"),
			want: "error: Destroy failed"},
		"--target matching nothing": {
			run:  cmd("preview", "--target", "urn:pulumi:dev::base::plinth:fs:File::nope"),
			want: "error: Target matches no resource"},
		"plinth.yaml is a directory": {
			apply: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "plinth.yaml")); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(filepath.Join(dir, "plinth.yaml"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
			run: cmd("preview"), want: "error: Cannot read the program"},
		"Ctrl-C": {
			apply: func(t *testing.T, dir string) {
				copyProgram("../slow/plinth.yaml")(t, dir)
				clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "wait", "1s")
			},
			run: func(t *testing.T, dir string) clitest.Result {
				interrupts, res, done := upInBackground(t, dir)
				interrupts <- os.Interrupt
				<-done
				return *res
			},
			want: "error: Interrupted"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, clitest.Options{Env: c.env}, "up", "--yes")
			if c.apply != nil {
				c.apply(t, dir)
			}
			r := c.run(t, dir)
			found := strings.Contains(r.Stderr, c.want) || (c.also != "" && strings.Contains(r.Stderr, c.also))
			if r.Code != 1 || !found || strings.Contains(r.Output(), "error: Error") {
				t.Errorf("exit %d, want 1 with %q and no bare \"error: Error\":\n%s", r.Code, c.want, r.Output())
			}
		})
	}
}

// cmd runs plinth with args and no environment.
func cmd(args ...string) func(t *testing.T, dir string) clitest.Result {
	return func(t *testing.T, dir string) clitest.Result {
		return clitest.Run(t, dir, clitest.Options{}, args...)
	}
}
