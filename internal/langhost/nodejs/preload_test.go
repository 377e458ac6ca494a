package nodejs

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// fakeSDK writes a stand-in @pulumi/pulumi under dir/node_modules whose
// run entry calls log.debug and log.info, which report whether they sent
// anything, and prints the NODE_OPTIONS the program sees.
func fakeSDK(t *testing.T, dir string) {
	t.Helper()
	sdk := filepath.Join(dir, "node_modules", "@pulumi", "pulumi")
	files := map[string]string{
		"log/index.js": `exports.debug = function (m) { console.log("sent debug " + m); return Promise.resolve(); };
exports.info = function (m) { console.log("sent info " + m); return Promise.resolve(); };
`,
		"cmd/run/index.js": `const log = require("../../log");
log.debug("registering");
log.info("hello");
console.log("NODE_OPTIONS=" + (process.env.NODE_OPTIONS === undefined ? "(unset)" : process.env.NODE_OPTIONS));
console.log("leftover=" + (process.env.PLINTH_USER_NODE_OPTIONS !== undefined));
`,
	}
	for name, text := range files {
		path := filepath.Join(sdk, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDebugLogsNotSent: the SDK's debug messages, which plinth drops, are
// not sent at all; other levels are; the program sees the user's
// NODE_OPTIONS, not plinth's preload; the preload file is removed.
func TestDebugLogsNotSent(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: node is not on PATH")
	}
	for name, tc := range map[string]struct {
		env  []string
		want string
	}{
		"no NODE_OPTIONS":   {nil, "sent info hello\nNODE_OPTIONS=(unset)\nleftover=false\n"},
		"user NODE_OPTIONS": {[]string{"NODE_OPTIONS=--no-warnings"}, "sent info hello\nNODE_OPTIONS=--no-warnings\nleftover=false\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			fakeSDK(t, dir)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			var out bytes.Buffer
			h := &Host{Node: node, Environ: func() []string { return append([]string{"PATH=" + os.Getenv("PATH")}, tc.env...) }}
			p := &langhost.Project{Name: "p", Dir: dir, File: filepath.Join(dir, "Pulumi.yaml"), Options: map[string]any{"typescript": false}}
			if err := h.Run(context.Background(), langhost.RunRequest{Project: p, Stack: "dev", MonitorAddr: "127.0.0.1:1", Stdout: &out, Stderr: &out}); err != nil {
				t.Fatalf("Run: %v\n%s", err, out.String())
			}
			if diff := cmp.Diff(tc.want, out.String()); diff != "" {
				t.Errorf("program output (-want +got):\n%s", diff)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "plinth-nodejs-preload-*")); len(left) > 0 {
				t.Errorf("the preload script was left behind: %v", left)
			}
		})
	}
}

// TestQuoteNodeOption: paths with spaces, quotes and backslashes survive
// node's NODE_OPTIONS parsing.
func TestQuoteNodeOption(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/a.js":        `"/tmp/a.js"`,
		`/tmp/my dir/a.js`: `"/tmp/my dir/a.js"`,
		`C:\Temp\"x".js`:   `"C:\\Temp\\\"x\".js"`,
	} {
		if got := quoteNodeOption(in); got != want {
			t.Errorf("quoteNodeOption(%q) = %s, want %s", in, got, want)
		}
	}
}
