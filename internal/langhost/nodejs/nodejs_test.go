package nodejs

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// TestArgs: the run entry gets the arguments Pulumi's Node.js language
// host passes.
func TestArgs(t *testing.T) {
	p := &langhost.Project{Name: "proj", Dir: "/src/proj"}
	got := Args("/src/proj/node_modules/@pulumi/pulumi/cmd/run/index.js", langhost.RunRequest{
		Project: p, Stack: "dev", Organization: "organization", MonitorAddr: "127.0.0.1:1", EngineAddr: "127.0.0.1:2",
		DryRun: true, Parallel: 8,
	})
	want := []string{"/src/proj/node_modules/@pulumi/pulumi/cmd/run/index.js",
		"--monitor", "127.0.0.1:1", "--engine", "127.0.0.1:2", "--organization", "organization",
		"--project", "proj", "--root-directory", "/src/proj", "--stack", "dev", "--pwd", "/src/proj",
		"--dry-run", "--parallel", "8", "."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
}

// TestArgsParallel: --parallel is passed whenever it is set, 1 included:
// @pulumi/pulumi registers resources one at a time only when told
// --parallel 1 (settings.serialize), so `plinth up --parallel 1` must say
// so, as Pulumi's host does.
func TestArgsParallel(t *testing.T) {
	p := &langhost.Project{Name: "proj", Dir: "/p"}
	for _, tc := range []struct {
		parallel int
		want     []string
	}{
		{0, nil},
		{1, []string{"--parallel", "1"}},
		{32, []string{"--parallel", "32"}},
	} {
		args := Args("run.js", langhost.RunRequest{Project: p, Stack: "dev", Parallel: tc.parallel})
		var got []string
		for i, a := range args {
			if a == "--parallel" && i+1 < len(args) {
				got = args[i : i+2]
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("parallel %d (-want +got):\n%s", tc.parallel, diff)
		}
	}
}

// TestNodeArgs: node gets a larger young generation unless the user sizes
// it, and the user's nodeargs come last.
func TestNodeArgs(t *testing.T) {
	for _, tc := range []struct {
		name, nodeargs string
		env            []string
		want           []string
	}{
		{"default", "", nil, []string{semiSpace}},
		{"user args after", "--inspect --trace-warnings", nil, []string{semiSpace, "--inspect", "--trace-warnings"}},
		{"user sizes it", "--max-semi-space-size=8", nil, []string{"--max-semi-space-size=8"}},
		{"NODE_OPTIONS sizes it", "", []string{"NODE_OPTIONS=--max-semi-space-size=4"}, nil},
		{"other NODE_OPTIONS", "", []string{"NODE_OPTIONS=--no-warnings"}, []string{semiSpace}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &langhost.Project{Options: map[string]any{"nodeargs": tc.nodeargs}}
			if diff := cmp.Diff(tc.want, nodeArgs(p, tc.env), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("node args (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEnv: config and secret keys as JSON, TypeScript on unless the
// project turns it off.
func TestEnv(t *testing.T) {
	h := &Host{Environ: func() []string { return []string{"PATH=/bin"} }}
	p := &langhost.Project{Name: "proj", Options: map[string]any{"typescript": false}}
	env, err := h.env(langhost.RunRequest{Project: p, Config: map[string]string{"proj:a": "1"}, SecretKeys: []string{"proj:a"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"PATH=/bin", `PULUMI_CONFIG={"proj:a":"1"}`, `PULUMI_CONFIG_SECRET_KEYS=["proj:a"]`, "PULUMI_NODEJS_TYPESCRIPT=false"}
	if diff := cmp.Diff(want, env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
}

// TestMissingSDK names the directory and says to run npm install.
func TestMissingSDK(t *testing.T) {
	dir := t.TempDir()
	err := (&Host{Node: "/bin/true"}).Check(&langhost.Project{Name: "p", Dir: dir, File: dir + "/Pulumi.yaml"})
	var me *MissingSDKError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "npm install") || !strings.Contains(err.Error(), dir) {
		t.Errorf("Check = %v, want a MissingSDKError naming %s and npm install", err, dir)
	}
}
