package golang

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// TestEnv: the program gets the variables the Go SDK's pulumi.Run reads,
// and none it inherited under those names (PULUMI_PLUGINS would make it
// list plugins and exit; a stale PULUMI_CONFIG would replace the stack's).
func TestEnv(t *testing.T) {
	inherited := []string{"HOME=/home/u", "PULUMI_CONFIG={\"stale\":\"1\"}", "PULUMI_PLUGINS=true", "PULUMI_HOME=/p", "GOFLAGS=-mod=mod"}
	h := &Host{Environ: func() []string { return inherited }}
	for name, tc := range map[string]struct {
		req  langhost.RunRequest
		want []string
	}{
		"preview": {
			req: langhost.RunRequest{Project: &langhost.Project{Name: "proj", Dir: "/src/proj"}, Stack: "dev", Organization: "organization",
				MonitorAddr: "127.0.0.1:1", EngineAddr: "127.0.0.1:2", Config: map[string]string{"proj:token": "t", "proj:n": "3"},
				SecretKeys: []string{"proj:token"}, DryRun: true, Parallel: 8},
			want: []string{"GOFLAGS=-mod=mod", "HOME=/home/u", `PULUMI_CONFIG={"proj:n":"3","proj:token":"t"}`,
				`PULUMI_CONFIG_SECRET_KEYS=["proj:token"]`, "PULUMI_DRY_RUN=true", "PULUMI_ENGINE=127.0.0.1:2", "PULUMI_HOME=/p",
				"PULUMI_MONITOR=127.0.0.1:1", "PULUMI_ORGANIZATION=organization", "PULUMI_PARALLEL=8", "PULUMI_PROJECT=proj",
				"PULUMI_ROOT_DIRECTORY=/src/proj", "PULUMI_STACK=dev"},
		},
		"update, no parallel, no config": {
			req: langhost.RunRequest{Project: &langhost.Project{Name: "proj", Dir: "/src/proj"}, Stack: "prod", Organization: "organization",
				MonitorAddr: "127.0.0.1:1", EngineAddr: "127.0.0.1:1"},
			want: []string{"GOFLAGS=-mod=mod", "HOME=/home/u", "PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]", "PULUMI_DRY_RUN=false",
				"PULUMI_ENGINE=127.0.0.1:1", "PULUMI_HOME=/p", "PULUMI_MONITOR=127.0.0.1:1", "PULUMI_ORGANIZATION=organization",
				"PULUMI_PROJECT=proj", "PULUMI_ROOT_DIRECTORY=/src/proj", "PULUMI_STACK=prod"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := h.env(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("env (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTarget: a program is built to buildTarget when it is set (relative
// to the program directory), else to one path in the build directory per
// program directory, the same for every run so that the go command
// finds the last build up to date.
func TestTarget(t *testing.T) {
	builds := t.TempDir()
	h := &Host{BuildDir: builds}
	target := func(p *langhost.Project) string {
		t.Helper()
		got, err := h.target(p, programDir(p))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	a := &langhost.Project{Dir: "/src/a"}
	b := &langhost.Project{Dir: "/src/b"}
	sub := &langhost.Project{Dir: "/src/a", Main: "cmd/infra"}
	if target(a) != target(&langhost.Project{Dir: "/src/a"}) {
		t.Errorf("two runs of one program are built to different paths")
	}
	if target(a) == target(b) || target(a) == target(sub) {
		t.Errorf("two programs are built to the same path %s", target(a))
	}
	if dir := filepath.Dir(filepath.Dir(target(a))); dir != builds {
		t.Errorf("the program is built to %s, outside the build directory %s", target(a), builds)
	}
	withTarget := &langhost.Project{Dir: "/src/a", Options: map[string]any{"buildTarget": "bin/infra"}}
	if got, want := target(withTarget), "/src/a/bin/infra"; got != want {
		t.Errorf("with buildTarget, target = %s, want %s", got, want)
	}
}

// TestTargetPrunes: finding where to build a program removes the builds
// of programs whose directory is gone, and keeps the others.
func TestTargetPrunes(t *testing.T) {
	builds, src := t.TempDir(), t.TempDir()
	h := &Host{BuildDir: builds}
	gone := filepath.Join(src, "gone")
	kept := filepath.Join(src, "kept")
	for _, dir := range []string{gone, kept} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		bin, err := h.target(&langhost.Project{Dir: dir}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, []byte("binary"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if _, err := h.target(&langhost.Project{Dir: kept}, kept); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, err := os.ReadDir(builds)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(builds, e.Name(), sourceFile))
		if err != nil {
			t.Fatal(err)
		}
		left = append(left, string(data))
		if _, err := os.Stat(filepath.Join(builds, e.Name(), "program")); err != nil {
			t.Errorf("the build of %s was removed: %v", data, err)
		}
	}
	if diff := cmp.Diff([]string{kept}, left); diff != "" {
		t.Errorf("builds left (-want +got):\n%s", diff)
	}
}
