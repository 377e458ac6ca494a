package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost/runtime/yamltest"
	"github.com/plinth-iac/plinth/internal/modbuild"
)

// pulumi: n pets from a Pulumi YAML program through pulumi-resource-plinth,
// by plinth and by the pulumi CLI, with the same language host and the
// same plugin binary.
func (h *harness) pulumi() error {
	bin, err := h.buildPlugin()
	if err != nil {
		return err
	}
	host, err := yamltest.Build(h.ctx)
	if err != nil {
		return err
	}
	n := h.size(defaultPulumiN)
	title := fmt.Sprintf("pulumi: %d plinth:random:Pet from a Pulumi YAML program through pulumi-resource-plinth", n)
	fmt.Println(title)
	path := filepath.Dir(host) + string(os.PathListSeparator) + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	project := filepath.Join(h.work, "pulumi-plinth")
	if err := writeFile(filepath.Join(project, "Pulumi.yaml"), pulumiYAMLProgram(n)); err != nil {
		return err
	}
	pl, err := h.plinthPhases(project, h.plinthEnv("PLINTH_PLUGIN_PATH="+filepath.Dir(bin), "PATH="+path))
	if err != nil {
		return err
	}
	rs := rows("plinth", pl, map[string]string{
		"create":     h.judge(pulumiCreate, n, pl.create),
		"no-op plan": h.judge(pulumiPreview, n, pl.preview),
	})
	if !h.peers {
		report(title, rs)
		printProfile("plinth", pl)
		return nil
	}
	cli, err := h.pulumiCLI()
	if err != nil {
		return err
	}
	pu, err := h.pulumiPhases(cli, path, n)
	if err != nil {
		return err
	}
	report(title, append(rs, rows("pulumi", pu, nil)...))
	ratios("pulumi", pl, pu)
	printProfile("plinth", pl)
	return nil
}

func pulumiYAMLProgram(n int) string {
	var b strings.Builder
	b.WriteString("name: pulumibench\nruntime: yaml\nresources:\n")
	for i := range n {
		fmt.Fprintf(&b, "  pet%d:\n    type: plinth:random:Pet\n    properties: { length: 2, prefix: p%d }\n", i, i) // as petsProgram
	}
	return b.String()
}

// pulumiPhases runs the program with the pulumi CLI on a file backend:
// up and a no-change preview (its destroy takes as long as its up and is
// not timed).
func (h *harness) pulumiPhases(cli, path string, n int) (usages, error) {
	dir := filepath.Join(h.work, "pulumi-pulumi")
	backend := filepath.Join(h.work, "pulumi-backend")
	if err := writeFile(filepath.Join(dir, "Pulumi.yaml"), pulumiYAMLProgram(n)); err != nil {
		return usages{}, err
	}
	if err := os.MkdirAll(backend, 0o755); err != nil {
		return usages{}, err
	}
	env := []string{
		"PULUMI_HOME=" + filepath.Join(h.work, "pulumi-home"),
		"PULUMI_BACKEND_URL=file://" + backend,
		"PULUMI_CONFIG_PASSPHRASE=bench",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"PATH=" + path,
	}
	var p usages
	if _, err := timed(dir, env, cli, "stack", "init", "bench", "--non-interactive"); err != nil {
		return p, err
	}
	var err error
	if p.create, err = timed(dir, env, cli, "up", "--yes", "--skip-preview", "--non-interactive"); err != nil {
		return p, err
	}
	if p.preview, err = timed(dir, env, cli, "preview", "--expect-no-changes", "--non-interactive"); err != nil {
		return p, fmt.Errorf("pulumi's no-change preview found changes or failed: %w", err)
	}
	return p, nil
}

// pulumiCLI returns the pulumi CLI the e2e tests use (modbuild.PulumiCLI:
// $PLINTH_PULUMI_CLI, pulumi on PATH, or the one built into the user
// cache from e2e/pulumicli's module, building it there first if missing).
func (h *harness) pulumiCLI() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(h.ctx, 30*time.Minute)
	defer cancel()
	return modbuild.PulumiCLI(ctx, filepath.Join(root, "e2e", "pulumicli", "testdata", "climodule"))
}
