package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// Default sizes: the ones issue 23's targets are set at.
const (
	defaultTerraformN = 2000
	defaultPulumiN    = 2000
	defaultScaleN     = 10000
)

// plinthYAML runs n built-in pets from plinth YAML on a backend ("" for
// the project's own .plinth directory), once per invocation: a second
// scenario asking for the same run gets the first one's figures.
func (h *harness) plinthYAML(n int, backend string, label string) (usages, error) {
	key := fmt.Sprintf("%d %s", n, label)
	if p, ok := h.runs[key]; ok {
		fmt.Printf("  (%d built-in on %s: measured above)\n", n, label)
		return p, nil
	}
	project := filepath.Join(h.work, fmt.Sprintf("builtin-%s-%d", label, n))
	if err := writeFile(filepath.Join(project, "plinth.yaml"), petsProgram("builtin", n)); err != nil {
		return usages{}, err
	}
	var env []string
	if backend != "" {
		env = append(env, "PLINTH_BACKEND="+backend)
	}
	p, err := h.plinthPhases(project, h.plinthEnv(env...))
	if err == nil {
		h.runs[key] = p
	}
	return p, err
}

// scale: n and 10n built-in pets in process on the file backend.
func (h *harness) scale() error {
	n := h.size(defaultScaleN)
	var rs []row
	var profiled []usages
	for _, size := range []int{n, 10 * n} {
		fmt.Printf("scale: %d plinth:random:Pet in process, file backend\n", size)
		p, err := h.plinthYAML(size, "", "file")
		if err != nil {
			return err
		}
		notes := map[string]string{
			"create":     h.judge(bigCreate, size, p.create),
			"no-op plan": h.judge(bigPreview, size, p.preview),
		}
		rs = append(rs, rows(fmt.Sprintf("%d", size), p, notes)...)
		profiled = append(profiled, p)
	}
	report("scale: built-in plinth:random:Pet from plinth YAML (tool column: resources), file backend", rs)
	for _, p := range profiled {
		printProfile("plinth", p)
	}
	return nil
}

// backends: n built-in pets on the file backend and on PostgreSQL.
func (h *harness) backends() error {
	n := h.size(defaultScaleN)
	fmt.Printf("backends: %d plinth:random:Pet on the file backend and on PostgreSQL\n", n)
	file, err := h.plinthYAML(n, "", "file")
	if err != nil {
		return err
	}
	fmt.Println("  starting a throwaway PostgreSQL cluster (fsync on)...")
	cluster, err := pgtest.Start(pgtest.Options{Durable: true})
	if err != nil {
		return err
	}
	defer func() {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "bench: stopping the PostgreSQL cluster:", err)
		}
	}()
	url, err := cluster.NewDatabase()
	if err != nil {
		return err
	}
	pg, err := h.plinthYAML(n, url, "postgres")
	if err != nil {
		return err
	}
	r := pg.create.wall.Seconds() / file.create.wall.Seconds()
	note := fmt.Sprintf("target ≤ 1.5x file at 10000: not judged (%.2fx)", r)
	if n == defaultScaleN {
		note = h.record(fmt.Sprintf("10k create on PostgreSQL ≤ 1.5x the file backend: %.2fx", r), r <= 1.5)
	}
	rs := append(rows("file", file, nil), rows("postgres", pg, map[string]string{"create": note})...)
	report(fmt.Sprintf("backends: %d built-in plinth:random:Pet from plinth YAML", n), rs)
	return nil
}

// plugin: n pets from plinth YAML through the built-in provider served
// out of process as pulumi-resource-plinth, by plinth alone: the pulumi
// scenario's judged row without the peers.
func (h *harness) plugin() error {
	n := h.size(defaultPulumiN)
	p, err := h.pluginRun(n)
	if err != nil {
		return err
	}
	report(fmt.Sprintf("plugin: %d plinth:random:Pet from plinth YAML through the out-of-process Pulumi-protocol plugin", n), rows("plinth", p, nil))
	printProfile("plinth", p)
	return nil
}

// pluginRun runs n pets from plinth YAML through pulumi-resource-plinth,
// found through PLINTH_PLUGIN_PATH, once per invocation: the pulumi and
// plugin scenarios share it.
func (h *harness) pluginRun(n int) (usages, error) {
	key := fmt.Sprintf("%d plugin", n)
	if p, ok := h.runs[key]; ok {
		fmt.Printf("  (%d through the plugin from plinth YAML: measured above)\n", n)
		return p, nil
	}
	bin, err := h.buildPlugin()
	if err != nil {
		return usages{}, err
	}
	fmt.Printf("plugin: %d plinth:random:Pet from plinth YAML through a Pulumi-protocol plugin\n", n)
	project := filepath.Join(h.work, "plugin")
	if err := writeFile(filepath.Join(project, "plinth.yaml"), petsProgram("plugin", n)); err != nil {
		return usages{}, err
	}
	p, err := h.plinthPhases(project, h.plinthEnv("PLINTH_PLUGIN_PATH="+filepath.Dir(bin)))
	if err == nil {
		h.runs[key] = p
	}
	return p, err
}

// petsProgram is n pets in plinth YAML. Each has its own prefix, so no
// two resources have equal inputs: the engine and the state share equal
// input objects, and a program of identical resources would measure that
// sharing rather than what a resource costs.
func petsProgram(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nresources:\n", name)
	for i := range n {
		fmt.Fprintf(&b, "  pet%d:\n    type: plinth:random:Pet\n    properties: { length: 2, prefix: p%d }\n", i, i)
	}
	return b.String()
}

// terraform: n resources, half random_pet and half terraform_data, from
// one Terraform configuration run by plinth and by terraform on the same
// random provider binary. terraform_data is built into both tools, so the
// providers' CPU is random's alone, as in issue 23's first figure
// (random_pet + null_resource: the null provider costs next to nothing,
// and the module proxy does not serve it).
func (h *harness) terraform() error {
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		return err
	}
	plugins := filepath.Join(h.work, "tfplugins")
	fmt.Println("building the Terraform providers (cached after the first run)...")
	bins, err := tfproviders.LinkInto(h.ctx, cache, plugins, "random")
	if err != nil {
		return err
	}
	n := h.size(defaultTerraformN)
	pets := (n + 1) / 2
	title := fmt.Sprintf("terraform: %d Terraform resources, %d random_pet + %d terraform_data (triggers_replace = its pet)", 2*pets, pets, pets)
	fmt.Println(title)
	project := filepath.Join(h.work, "tf-plinth")
	if err := writeFile(filepath.Join(project, "main.tf"), tfConfig(pets)); err != nil {
		return err
	}
	pl, err := h.plinthPhases(project, h.plinthEnv("PLINTH_PLUGIN_PATH="+plugins))
	if err != nil {
		return err
	}
	rs := rows("plinth", pl, map[string]string{
		"create":     h.judge(tfCreate, 2*pets, pl.create),
		"no-op plan": h.judge(tfPreview, 2*pets, pl.preview),
	})
	if !h.peers {
		report(title, rs)
		printProfile("plinth", pl)
		return nil
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		report(title, rs)
		fmt.Println("terraform is not on PATH: no comparison")
		printProfile("plinth", pl)
		return nil
	}
	t, err := h.terraformPhases(tf, bins, pets)
	if err != nil {
		return err
	}
	report(title, append(rs, rows("terraform", t, nil)...))
	ratios("terraform", "plinth", pl, t)
	printProfile("plinth", pl)
	return nil
}

// tfConfig is the configuration both tools run: n pets, and n
// terraform_data each replaced when its pet is.
func tfConfig(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
  }
}

resource "random_pet" "pet" {
  count  = %d
  length = 2
}

resource "terraform_data" "stamp" {
  count            = %d
  triggers_replace = random_pet.pet[count.index].id
}
`, n, n)
}

// terraformPhases applies, plans and destroys the equivalent configuration
// with terraform, on the same provider binaries (dev_overrides, no network).
func (h *harness) terraformPhases(tf string, bins map[string]string, n int) (usages, error) {
	dir := filepath.Join(h.work, "tf-terraform")
	if err := writeFile(filepath.Join(dir, "main.tf"), tfConfig(n)); err != nil {
		return usages{}, err
	}
	var overrides strings.Builder
	for name, bin := range bins {
		fmt.Fprintf(&overrides, "    %q = %q\n", "hashicorp/"+name, filepath.Dir(bin))
	}
	rc := filepath.Join(dir, "terraformrc")
	if err := writeFile(rc, "provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"); err != nil {
		return usages{}, err
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1"}
	var p usages
	var err error
	if p.create, err = timed(dir, env, tf, "apply", "-auto-approve", "-no-color"); err != nil {
		return p, err
	}
	if p.preview, err = timed(dir, env, tf, "plan", "-detailed-exitcode", "-no-color"); err != nil {
		return p, fmt.Errorf("terraform's no-change plan: %w", err)
	}
	p.destroy, err = timed(dir, env, tf, "destroy", "-auto-approve", "-no-color")
	_ = os.Remove(rc)
	return p, err
}
