package tflang

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// adoptUnsuitable names the configurations of the side-by-side corpus the
// adoption round trip cannot run, and why. Keep it short: every entry is
// a gap in what the round trip proves.
var adoptUnsuitable = map[string]string{}

// TestAdoptCorpus is the round trip between the tools for every
// configuration of testdata/compare: terraform applies it (and its
// step2.tf.txt, if any); plinth adopts the terraform.tfstate in the same
// directory; a preview finds nothing to do and the stack outputs equal
// terraform's, random values included, before and after an up; the state
// plinth exports, on its own (no --previous) and over terraform's, makes
// terraform plan no changes; plinth
// destroys everything, and terraform, given the exported empty state,
// plans to create exactly the instances it had made.
func TestAdoptCorpus(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: the adoption round trip needs it (install terraform 1.11)")
	}
	dirs, err := filepath.Glob("testdata/compare/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no configurations under testdata/compare: %v", err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			if why, ok := adoptUnsuitable[name]; ok {
				t.Skip(why)
			}
			t.Parallel()
			adoptRoundTrip(t, tf, dir)
		})
	}
}

// adoptRoundTrip runs the round trip for one configuration.
func adoptRoundTrip(t *testing.T, tf, src string) {
	d := newTFTree(t, tf, src)
	d.must("apply", "-auto-approve", "-no-color")
	if step2, err := os.ReadFile(filepath.Join(d.dir, "step2.tf.txt")); err == nil {
		writeConfig(t, d.dir, string(step2))
		d.must("apply", "-auto-approve", "-no-color")
	}
	want := d.outputs()
	rememberOutputs(src, want)
	original, err := os.ReadFile(filepath.Join(d.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	// plinth works in terraform's directory: relative paths in the
	// state (local_file's filename) name the same files.
	p := newProject(t, configDir(t, ""))
	p.dir = d.dir
	p.must("state", "adopt", filepath.Join(d.dir, "terraform.tfstate"))
	if diff := cmp.Diff(want, p.outputs()); diff != "" {
		t.Errorf("stack outputs after adopt differ from terraform's (-terraform +plinth):\n%s", diff)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Fatalf("preview after adopt is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	adopted := stackRecords(t, p)
	p.must("up", "--yes")
	if diff := cmp.Diff(want, p.outputs()); diff != "" {
		t.Errorf("stack outputs after up differ from terraform's (-terraform +plinth):\n%s", diff)
	}
	// The up may add the records of providers only data sources,
	// functions or ephemeral resources use; it keeps every adopted one.
	if gone := missing(adopted, stackRecords(t, p)); len(gone) > 0 {
		t.Errorf("the up after adopt renamed these records or moved them to other providers:\n%s", strings.Join(gone, "\n"))
	}
	// The state stands on its own: exported without the original, then
	// over it.
	p.must("state", "export", "--format", "terraform", "--file", filepath.Join(d.dir, "terraform.tfstate"))
	checkPlanClean(t, d)
	exportOver(t, p, d, original)
	checkPlanClean(t, d)
	p.must("destroy", "--yes")
	exportOver(t, p, d, original)
	checkPlansOnlyCreates(t, d, managedInstances(t, original))
}

// exportOver writes plinth's state as a Terraform state over terraform's,
// keeping (--previous) the original's lineage, the next serial and its
// output types.
func exportOver(t *testing.T, p *project, d *tfDir, original []byte) {
	t.Helper()
	prev := filepath.Join(t.TempDir(), "previous.tfstate")
	if err := os.WriteFile(prev, original, 0o644); err != nil {
		t.Fatal(err)
	}
	p.must("state", "export", "--format", "terraform", "--previous", prev,
		"--file", filepath.Join(d.dir, "terraform.tfstate"))
}

// stackRecords lists the stack's records, providers included, each as
// its URN and the provider reference it is managed by (without the
// provider's ID), from the stack exported as a Pulumi deployment.
func stackRecords(t *testing.T, p *project) []string {
	t.Helper()
	var dep struct {
		Deployment struct {
			Resources []struct{ URN, Provider string }
		}
	}
	// Secrets in the export are encrypted with a passphrase, which a
	// Pulumi deployment needs.
	opts := p.opts
	opts.Env = map[string]string{"PULUMI_CONFIG_PASSPHRASE": "records"}
	for k, v := range p.opts.Env {
		opts.Env[k] = v
	}
	decodeJSON(t, clitest.MustRun(t, p.dir, opts, "state", "export", "--format", "pulumi").Stdout, &dep)
	var out []string
	for _, r := range dep.Deployment.Resources {
		prov := r.Provider
		if i := strings.LastIndex(prov, "::"); i >= 0 {
			prov = prov[:i]
		}
		out = append(out, r.URN+" <- "+prov)
	}
	sort.Strings(out)
	return out
}

// missing lists the elements of want that got lacks.
func missing(want, got []string) []string {
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	var out []string
	for _, w := range want {
		if !have[w] {
			out = append(out, w)
		}
	}
	return out
}

// managedInstances lists the addresses of the managed resource instances
// (current objects) in a Terraform state.
func managedInstances(t *testing.T, data []byte) []string {
	t.Helper()
	var st struct {
		Resources []struct {
			Module, Mode, Type, Name string
			Instances                []struct {
				IndexKey any `json:"index_key"`
			}
		}
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		base := r.Type + "." + r.Name
		if r.Module != "" {
			base = r.Module + "." + base
		}
		for _, in := range r.Instances {
			switch k := in.IndexKey.(type) {
			case nil:
				out = append(out, base)
			case string:
				out = append(out, base+"["+strconv.Quote(k)+"]")
			case float64:
				out = append(out, base+"["+strconv.Itoa(int(k))+"]")
			}
		}
	}
	sort.Strings(out)
	return out
}

// checkPlanClean checks that terraform plans no changes. Terraform's
// -detailed-exitcode is 2 for every plan of a configuration with data
// sources nested in check blocks, which it reads during every apply
// ("config will be reloaded to verify a check block"): such a plan is
// clean if those reads are all it plans. vars are extra arguments to the
// plan (-var NAME=VALUE).
func checkPlanClean(t *testing.T, d *tfDir, vars ...string) {
	t.Helper()
	r := d.run(append([]string{"plan", "-detailed-exitcode", "-no-color", "-input=false", "-out=clean.plan"}, vars...)...)
	if r.code == 0 {
		return
	}
	if r.code != 2 {
		t.Fatalf("terraform plan on plinth's exported state failed (exit %d):\n%s", r.code, r.out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address      string `json:"address"`
			ActionReason string `json:"action_reason"`
			Change       struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
		OutputChanges map[string]struct {
			Actions []string `json:"actions"`
		} `json:"output_changes"`
	}
	decodeJSON(t, d.must("show", "-json", "clean.plan"), &plan)
	for _, rc := range plan.ResourceChanges {
		a := strings.Join(rc.Change.Actions, ",")
		if a != "no-op" && (a != "read" || rc.ActionReason != "read_because_check_nested") {
			t.Errorf("terraform plan on plinth's exported state is not clean: %s %s (%s):\n%s", a, rc.Address, rc.ActionReason, r.out)
		}
	}
	for name, oc := range plan.OutputChanges {
		if a := strings.Join(oc.Actions, ","); a != "no-op" {
			t.Errorf("terraform plan on plinth's exported state changes output %s (%s):\n%s", name, a, r.out)
		}
	}
}

// checkPlansOnlyCreates plans the configuration against the state in its
// directory and checks that terraform would create exactly want, and do
// nothing else: plinth's destroy left nothing terraform still manages.
func checkPlansOnlyCreates(t *testing.T, d *tfDir, want []string) {
	t.Helper()
	d.must("plan", "-no-color", "-input=false", "-out=after-destroy.plan")
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Mode    string `json:"mode"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	decodeJSON(t, d.must("show", "-json", "after-destroy.plan"), &plan)
	var creates []string
	for _, rc := range plan.ResourceChanges {
		if rc.Mode != "managed" {
			continue
		}
		if len(rc.Change.Actions) != 1 || rc.Change.Actions[0] != "create" {
			t.Errorf("after plinth's destroy terraform plans %v for %s, want only creates", rc.Change.Actions, rc.Address)
			continue
		}
		creates = append(creates, rc.Address)
	}
	sort.Strings(creates)
	if diff := cmp.Diff(want, creates); diff != "" {
		t.Errorf("after plinth's destroy terraform does not plan to create every instance it had made (-made +planned):\n%s", diff)
	}
}

// newTFTree is newTFDir for a configuration with subdirectories
// (modules).
func newTFTree(t *testing.T, tf, src string) *tfDir {
	t.Helper()
	dir := clitest.CopyDir(t, src)
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+devOverrides(t, dir), "TF_IN_AUTOMATION=1",
		"TF_INPUT=0", "CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	d := &tfDir{t: t, tf: tf, dir: dir, env: env}
	d.must("init", "-input=false", "-no-color")
	return d
}

// tfResult is a terraform run that may fail.
type tfResult struct {
	code int
	out  string
}

// run runs terraform and returns its exit code and combined output.
func (d *tfDir) run(args ...string) tfResult {
	d.t.Helper()
	cmd := exec.Command(d.tf, args...)
	cmd.Dir, cmd.Env = d.dir, d.env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return tfResult{code: exit.ExitCode(), out: string(out)}
	case err != nil:
		d.t.Fatalf("terraform %v: %v", args, err)
	}
	return tfResult{out: string(out)}
}

// TestProviderBlockKeepsOldName checks a stack recorded before the root
// module's unaliased provider block was named as the default provider
// (it was provider.random): the resources it manages are neither replaced
// nor changed, and after one up the stack previews clean.
func TestProviderBlockKeepsOldName(t *testing.T) {
	needReal(t)
	p := newProject(t, configDir(t, "provider \"random\" {}\nresource \"random_pet\" \"p\" {}\noutput \"p\" { value = random_pet.p.id }\n"))
	p.must("up", "--yes")
	want := p.outputs()
	// Rewrite the stack as the old naming recorded it.
	f := filepath.Join(t.TempDir(), "old.json")
	p.must("state", "export", "--format", "pulumi", "--file", f)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.ReplaceAll(string(data), "pulumi:providers:random::default", "pulumi:providers:random::provider.random")
	if old == string(data) {
		t.Fatal("the exported stack has no provider named default")
	}
	if err := os.WriteFile(f, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	p.must("state", "adopt", "--format", "pulumi", "--force", f)
	if out := p.must("preview", "--diff").Output(); strings.Contains(out, "random_pet.p") {
		t.Errorf("the preview changes random_pet.p:\n%s", out)
	}
	p.must("up", "--yes")
	if diff := cmp.Diff(want, p.outputs()); diff != "" {
		t.Errorf("outputs after up (-before +after):\n%s", diff)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("the second preview is not clean (exit %d):\n%s", r.Code, r.Output())
	}
}

// TestDefaultProviderKeepsVersionedName checks a stack recorded before a
// Terraform configuration's default provider was named default whatever
// its version constraint (it was default_<constraint>, default____3_6
// for "~> 3.6"), with and without a provider block: the resources are
// neither replaced nor changed, and one up drops the old provider record
// and previews clean after.
func TestDefaultProviderKeepsVersionedName(t *testing.T) {
	needReal(t)
	const required = "terraform {\n  required_providers {\n    random = { source = \"hashicorp/random\", version = \"~> 3.6\" }\n  }\n}\n"
	const body = "resource \"random_pet\" \"p\" {}\noutput \"p\" { value = random_pet.p.id }\n"
	tests := map[string]string{
		"implied":        required + body,
		"provider block": required + "provider \"random\" {}\n" + body,
	}
	for name, config := range tests {
		t.Run(name, func(t *testing.T) {
			p := newProject(t, configDir(t, config))
			p.must("up", "--yes")
			want := p.outputs()
			readopt(t, p, "pulumi:providers:random::default", "pulumi:providers:random::default____3_6")
			if out := p.must("preview", "--diff").Output(); strings.Contains(out, "random_pet.p") {
				t.Errorf("the preview changes random_pet.p:\n%s", out)
			}
			p.must("up", "--yes")
			if diff := cmp.Diff(want, p.outputs()); diff != "" {
				t.Errorf("outputs after up (-before +after):\n%s", diff)
			}
			for _, r := range stackRecords(t, p) {
				if strings.Contains(r, "default____3_6") {
					t.Errorf("after the up the stack still records %s", r)
				}
			}
			if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
				t.Errorf("the second preview is not clean (exit %d):\n%s", r.Code, r.Output())
			}
		})
	}
}

// readopt rewrites the stack's provider name old as new, through an
// export and a forced adopt, as an older plinth recorded it.
func readopt(t *testing.T, p *project, old, new string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "old.json")
	p.must("state", "export", "--format", "pulumi", "--file", f)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.ReplaceAll(string(data), old+"::", new+"::")
	renamed = strings.ReplaceAll(renamed, old+"\"", new+"\"")
	if renamed == string(data) {
		t.Fatalf("the exported stack has no provider %s", old)
	}
	if err := os.WriteFile(f, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	p.must("state", "adopt", "--format", "pulumi", "--force", f)
}
