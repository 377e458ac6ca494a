package tfserve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// plinthProject is a copy of testdata/both that plinth drives, finding
// the providers in plugins.
type plinthProject struct {
	t    *testing.T
	dir  string
	opts clitest.Options
}

func newPlinthProject(t *testing.T, plugins string) *plinthProject {
	t.Helper()
	needBinaries(t)
	return &plinthProject{t: t, dir: clitest.CopyDir(t, filepath.Join("testdata", "both")), opts: clitest.Options{
		Env: map[string]string{"PLINTH_PLUGIN_PATH": plugins, "PLINTH_HOME": t.TempDir(), "PULUMI_HOME": t.TempDir()},
	}}
}

func (p *plinthProject) must(args ...string) clitest.Result {
	p.t.Helper()
	return clitest.MustRun(p.t, p.dir, p.opts, args...)
}

// outputs returns a resource's recorded outputs.
func (p *plinthProject) outputs(name string) map[string]any {
	p.t.Helper()
	var shown struct {
		Outputs map[string]any `json:"outputs"`
	}
	decode(p.t, p.must("state", "show", name, "--json", "--show-secrets").Stdout, &shown)
	return shown.Outputs
}

// TestPlinthAndTerraformAgree applies testdata/both with plinth (through
// its Terraform adapter, driving terraform-provider-plinth out of
// process) and with terraform (main.tf, the same binaries): the
// deterministic attributes they record must be equal. Then the test
// provider's schema changes from version 0 to 1 (name became title), and
// both upgrade the recorded state, with no changes planned.
func TestPlinthAndTerraformAgree(t *testing.T) {
	t.Parallel()
	w := newTF(t, 6, bins.test0)
	src, _ := os.ReadFile(filepath.Join("testdata", "both", "main.tf"))
	w.write("main.tf", string(src))
	w.must("apply", "-auto-approve")
	tfState := stateOf(t, w)

	p := newPlinthProject(t, bins.plugins0)
	p.must("up", "--yes")
	for _, name := range []string{"i", "f", "thing"} {
		got, want := p.outputs(name), tfState[tfAddress(name)]
		if strings.HasPrefix(tfAddress(name), "plinth_fs_file") {
			ignorePaths(got, want)
		}
		if diff := cmp.Diff(normal(t, want), normal(t, got)); diff != "" {
			t.Errorf("%s differs (-terraform +plinth):\n%s", name, diff)
		}
	}

	// Version 1 of the test provider renames name to title and upgrades.
	w.useTestProvider(bins.test1)
	w.write("main.tf", strings.Replace(string(src), `name = "t"`, `title = "t"`, 1))
	assertNoChanges(t, w, "after the schema upgrade")
	w.must("apply", "-refresh-only", "-auto-approve")
	assertUpgraded(t, readTFState(t, w))

	p.opts.Env["PLINTH_PLUGIN_PATH"] = bins.plugins1
	clitest.Edit(t, p.dir, "plinth.yaml", "      name: t\n", "      title: t\n")
	p.must("up", "--yes", "--refresh")
	if got := p.outputs("thing"); got["title"] != "t" || got["name"] != nil {
		t.Errorf("plinth did not upgrade the thing's state: %v", got)
	}
	if r := clitest.Run(t, p.dir, p.opts, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth preview after the upgrade: exit %d, want 0 (no changes)\n%s", r.Code, r.Output())
	}
	if got := p.must("stack", "output", "home").Stdout; !strings.Contains(got, "unset") {
		t.Errorf("the data source through plinth gave %q, want the default", got)
	}
}

func tfAddress(name string) string {
	return map[string]string{"i": "plinth_random_integer.i", "f": "plinth_fs_file.f", "thing": "plinthtest_thing.thing"}[name]
}

// ignorePaths drops what depends on the working directory.
func ignorePaths(ms ...map[string]any) {
	for _, m := range ms {
		delete(m, "id")
		delete(m, "absolute_path")
	}
}

// normal drops nulls and renders numbers alike, as terraform's JSON and
// plinth's differ only there.
func normal(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	decode(t, string(b), &out)
	for k, v := range out {
		if v == nil {
			delete(out, k)
		}
	}
	return out
}

type tfStateFile struct {
	Resources []struct {
		Type      string `json:"type"`
		Instances []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

func readTFState(t *testing.T, w *tf) tfStateFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var s tfStateFile
	decode(t, string(b), &s)
	return s
}

func assertUpgraded(t *testing.T, s tfStateFile) {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type != "plinthtest_thing" {
			continue
		}
		in := r.Instances[0]
		if in.SchemaVersion != 1 || in.Attributes["title"] != "t" || in.Attributes["name"] != nil {
			t.Errorf("terraform's state was not upgraded to version 1: version %d, %v", in.SchemaVersion, in.Attributes)
		}
		return
	}
	t.Error("terraform's state has no plinthtest_thing")
}
