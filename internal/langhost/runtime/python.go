package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// PythonDynamicPackage is the package of Pulumi's Python dynamic
// providers: a pulumi.dynamic.Resource of a Python program has type
// pulumi-python:dynamic:Resource and provider pulumi:providers:pulumi-python.
const PythonDynamicPackage = "pulumi-python"

var _ langhost.ProviderHost = (*Host)(nil)

// Provider implements langhost.ProviderHost. The python runtime serves
// PythonDynamicPackage as Pulumi's pulumi-resource-pulumi-python script
// does: the program's Python (its virtualenv's, from the runtime option
// virtualenv, or .venv with toolchain uv; else PULUMI_PYTHON_CMD or
// python3) runs the SDK's pulumi.dynamic module in the program's
// directory, with the stack config in PULUMI_CONFIG. Before that, plinth
// checks that this Python can import the SDK, so that a missing
// virtualenv or SDK is named rather than left to a crash report. Other
// runtimes serve no provider.
func (h *Host) Provider(req langhost.ProviderRequest) (langhost.Command, bool, error) {
	if h.Runtime != "python" || req.Package != PythonDynamicPackage {
		return langhost.Command{}, false, nil
	}
	python, env, err := h.python(req.Project)
	if err != nil {
		return langhost.Command{}, true, err
	}
	if err := canImportSDK(python, req.Project.Dir); err != nil {
		return langhost.Command{}, true, err
	}
	cfg, err := langhost.ConfigEnv(req.Config, req.SecretKeys)
	if err != nil {
		return langhost.Command{}, true, err
	}
	env = append(append(env, cfg...), "PULUMI_PROJECT="+req.Project.Name)
	return langhost.Command{Path: python, Args: []string{"-u", "-m", "pulumi.dynamic"}, Env: env}, true, nil
}

// python finds the program's Python interpreter and the variables it
// runs with.
func (h *Host) python(p *langhost.Project) (string, []string, error) {
	venv, _ := p.Options["virtualenv"].(string)
	if toolchain, _ := p.Options["toolchain"].(string); venv == "" && toolchain == "uv" {
		venv = ".venv"
	} else if venv == "" && toolchain == "poetry" {
		return "", nil, fmt.Errorf("%s: the Python dynamic provider of a program with toolchain poetry is not supported by plinth; set the runtime option virtualenv to the poetry environment's directory", p.File)
	}
	if venv == "" {
		cmd := h.getenv("PULUMI_PYTHON_CMD")
		if cmd == "" {
			cmd = "python3"
		}
		path, err := exec.LookPath(cmd)
		if err != nil {
			return "", nil, fmt.Errorf("the Python dynamic provider of %s needs Python with the Pulumi SDK (the pulumi package): %s was not found (%v); install Python, or set the runtime option virtualenv in %s", p.Dir, cmd, err, p.File)
		}
		return path, nil, nil
	}
	if !filepath.IsAbs(venv) {
		venv = filepath.Join(p.Dir, venv)
	}
	python := filepath.Join(venv, "bin", "python")
	if fi, err := os.Stat(python); err != nil || fi.IsDir() {
		return "", nil, fmt.Errorf("%s: the runtime option virtualenv names %s, which is not a virtual environment (it has no bin/python); create it (python3 -m venv %s) and install the program's requirements, the pulumi package among them", p.File, venv, venv)
	}
	return python, []string{"PATH=" + filepath.Join(venv, "bin") + string(os.PathListSeparator) + h.getenv("PATH")}, nil
}

// canImportSDK checks that python can import the Pulumi SDK's dynamic
// provider module.
func canImportSDK(python, dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", "import pulumi.dynamic")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return fmt.Errorf("the Python dynamic provider needs the Pulumi SDK for Python, which %s cannot import (%s); install the program's requirements (pip install pulumi) for that Python", python, strings.TrimSpace(lines[len(lines)-1]))
}
