package cli_test

import (
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestUnknownSubcommand: a word a command group does not know is an
// error (exit 1, nothing on stdout), not its help and exit 0, so that
// `plinth stack export > backup.json` cannot look like it worked.
func TestUnknownSubcommand(t *testing.T) {
	cases := map[string]struct {
		args []string
		want []string
	}{
		"stack":  {[]string{"stack", "export"}, []string{`unknown command "export" for "plinth stack"`, "init, ls, output, rm, select"}},
		"state":  {[]string{"state", "lss"}, []string{`unknown command "lss" for "plinth state"`, `did you mean "ls"?`}},
		"plugin": {[]string{"plugin", "list"}, []string{`unknown command "list" for "plinth plugin"`, "its commands are: install, ls"}},
		"config": {[]string{"config", "unset"}, []string{`unknown command "unset" for "plinth config"`}},
		"root":   {[]string{"stat"}, []string{`unknown command "stat" for "plinth"`, `did you mean "stack" or "state"?`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := clitest.Run(t, t.TempDir(), clitest.Options{}, tc.args...)
			if r.Code != 1 || r.Stdout != "" {
				t.Errorf("plinth %s: exit %d with stdout %q, want exit 1 and nothing on stdout", strings.Join(tc.args, " "), r.Code, r.Stdout)
			}
			for _, w := range append(tc.want, "Invalid command line") {
				if !strings.Contains(r.Stderr, w) {
					t.Errorf("plinth %s: stderr lacks %q:\n%s", strings.Join(tc.args, " "), w, r.Stderr)
				}
			}
		})
	}
	// With no word at all, a group still shows its help.
	if r := clitest.Run(t, t.TempDir(), clitest.Options{}, "stack"); r.Code != 0 || !strings.Contains(r.Stdout, "Available Commands") {
		t.Errorf("plinth stack: exit %d, want 0 and its help:\n%s", r.Code, r.Output())
	}
}
