package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// builtin: 2n pets through the in-process built-in provider.
func (h *harness) builtin() error {
	n := h.size(defaultN)
	fmt.Printf("builtin: %d plinth:random:Pet in process\n", 2*n)
	project := filepath.Join(h.work, "builtin")
	if err := writeFile(filepath.Join(project, "plinth.yaml"), petsProgram("builtin", 2*n)); err != nil {
		return err
	}
	p, err := h.plinthPhases(project, nil)
	if err != nil {
		return err
	}
	report(fmt.Sprintf("builtin: %d plinth:random:Pet in process", 2*n), map[string]phases{"plinth": p}, []string{"plinth"})
	return nil
}

// pulumi: the same program with the built-in provider served out of
// process as pulumi-resource-plinth, found through PLINTH_PLUGIN_PATH.
func (h *harness) pulumi() error {
	bin, err := h.build("./cmd/pulumi-resource-plinth", "plugins/pulumi-resource-plinth")
	if err != nil {
		return err
	}
	n := h.size(defaultN)
	fmt.Printf("pulumi: %d plinth:random:Pet through a Pulumi-protocol plugin\n", 2*n)
	project := filepath.Join(h.work, "pulumi")
	if err := writeFile(filepath.Join(project, "plinth.yaml"), petsProgram("pulumi", 2*n)); err != nil {
		return err
	}
	p, err := h.plinthPhases(project, []string{"PLINTH_PLUGIN_PATH=" + filepath.Dir(bin)})
	if err != nil {
		return err
	}
	report(fmt.Sprintf("pulumi: %d plinth:random:Pet through the out-of-process Pulumi-protocol plugin", 2*n), map[string]phases{"plinth": p}, []string{"plinth"})
	return nil
}

func petsProgram(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nresources:\n", name)
	for i := range n {
		fmt.Fprintf(&b, "  pet%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
	}
	return b.String()
}

// terraform: n random_pet and n time_static through the real providers,
// with plinth and with terraform.
func (h *harness) terraform() error {
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		return err
	}
	plugins := filepath.Join(h.work, "tfplugins")
	fmt.Println("building the Terraform providers (cached after the first run)...")
	bins, err := tfproviders.LinkInto(h.ctx, cache, plugins, "random", "time")
	if err != nil {
		return err
	}
	n := h.size(defaultTerraformN)
	title := fmt.Sprintf("terraform: %d random_pet + %d time_static (triggered by its pet)", n, n)
	fmt.Println(title)
	rows := map[string]phases{}
	project := filepath.Join(h.work, "tf-plinth")
	if err := writeFile(filepath.Join(project, "plinth.yaml"), tfPlinthProgram(n)); err != nil {
		return err
	}
	if rows["plinth"], err = h.plinthPhases(project, []string{"PLINTH_PLUGIN_PATH=" + plugins}); err != nil {
		return err
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		report(title, rows, []string{"plinth"})
		fmt.Println("terraform is not on PATH: no comparison")
		return nil
	}
	if rows["terraform"], err = h.terraformPhases(tf, bins, n); err != nil {
		return err
	}
	report(title, rows, []string{"plinth", "terraform"})
	pl, t := rows["plinth"], rows["terraform"]
	fmt.Printf("%-10s %11.1fx %11.1fx %11.1fx\n", "ratio", ratio(t.create, pl.create), ratio(t.preview, pl.preview), ratio(t.destroy, pl.destroy))
	return nil
}

func ratio(a, b interface{ Seconds() float64 }) float64 { return a.Seconds() / b.Seconds() }

func tfPlinthProgram(n int) string {
	var b strings.Builder
	b.WriteString("name: tfbench\nproviders:\n  random: { source: hashicorp/random, version: \"~> 3.6\" }\n  time: { source: hashicorp/time }\nresources:\n")
	for i := range n {
		fmt.Fprintf(&b, "  pet%d:\n    type: random_pet\n    properties: { length: 2 }\n", i)
		fmt.Fprintf(&b, "  stamp%d:\n    type: time_static\n    properties: { triggers: { pet: \"${pet%d.id}\" } }\n", i, i)
	}
	return b.String()
}

func tfConfig(n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
    time   = { source = "hashicorp/time" }
  }
}

resource "random_pet" "pet" {
  count  = %d
  length = 2
}

resource "time_static" "stamp" {
  count    = %d
  triggers = { pet = random_pet.pet[count.index].id }
}
`, n, n)
}

// terraformPhases applies, plans and destroys the equivalent configuration
// with terraform, on the same provider binaries (dev_overrides, no network).
func (h *harness) terraformPhases(tf string, bins map[string]string, n int) (phases, error) {
	dir := filepath.Join(h.work, "tf-terraform")
	if err := writeFile(filepath.Join(dir, "main.tf"), tfConfig(n)); err != nil {
		return phases{}, err
	}
	var overrides strings.Builder
	for name, bin := range bins {
		fmt.Fprintf(&overrides, "    %q = %q\n", "hashicorp/"+name, filepath.Dir(bin))
	}
	rc := filepath.Join(dir, "terraformrc")
	if err := writeFile(rc, "provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"); err != nil {
		return phases{}, err
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1"}
	var p phases
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
