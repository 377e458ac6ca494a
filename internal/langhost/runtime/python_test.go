package runtime_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/langhost/runtime"
)

// fakePython writes a script standing in for a Python interpreter: it
// exits with code and prints msg when asked to import the SDK.
func fakePython(t *testing.T, path string, code int, msg string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho '" + msg + "' >&2\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestPythonDynamicProvider: the python runtime serves the package
// pulumi-python (Python's dynamic providers) as Pulumi's
// pulumi-resource-pulumi-python does: the virtualenv's Python (runtime
// option virtualenv) or PULUMI_PYTHON_CMD runs `-u -m pulumi.dynamic`
// with the stack config in PULUMI_CONFIG; a virtualenv that is not
// there, a Python that is not there and one without the Pulumi SDK are
// each refused, naming what is missing and how to install it. Other
// runtimes and packages are not served. Before, no runtime but nodejs
// served a dynamic provider.
func TestPythonDynamicProvider(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "venv", "bin", "python")
	fakePython(t, good, 0, "")
	noSDK := filepath.Join(dir, "nosdk")
	fakePython(t, noSDK, 1, "ModuleNotFoundError: No module named pulumi")
	req := func(opts map[string]any) langhost.ProviderRequest {
		return langhost.ProviderRequest{Project: &langhost.Project{Name: "pyprog", File: filepath.Join(dir, "Pulumi.yaml"), Dir: dir, Runtime: "python", Options: opts},
			Package: runtime.PythonDynamicPackage, Config: map[string]string{"pyprog:token": "s"}, SecretKeys: []string{"pyprog:token"}}
	}
	host := func(env map[string]string) *runtime.Host {
		return &runtime.Host{Runtime: "python", Getenv: func(k string) string { return env[k] }}
	}

	cmd, ok, err := host(nil).Provider(req(map[string]any{"virtualenv": "venv"}))
	if err != nil || !ok {
		t.Fatalf("Provider: ok %v, err %v", ok, err)
	}
	if diff := cmp.Diff([]string{"-u", "-m", "pulumi.dynamic"}, cmd.Args); cmd.Path != good || diff != "" {
		t.Errorf("command %s %q, want %s -u -m pulumi.dynamic", cmd.Path, cmd.Args, good)
	}
	if !slices.Contains(cmd.Env, `PULUMI_CONFIG={"pyprog:token":"s"}`) || !slices.Contains(cmd.Env, `PULUMI_CONFIG_SECRET_KEYS=["pyprog:token"]`) ||
		!slices.Contains(cmd.Env, "PULUMI_PROJECT=pyprog") {
		t.Errorf("environment %q lacks the stack config or the project", cmd.Env)
	}
	cmd, _, err = host(map[string]string{"PULUMI_PYTHON_CMD": good}).Provider(req(nil))
	if err != nil || cmd.Path != good {
		t.Errorf("with PULUMI_PYTHON_CMD: %s, %v; want %s", cmd.Path, err, good)
	}

	for name, tc := range map[string]struct {
		env  map[string]string
		opts map[string]any
		want []string
	}{
		"no virtualenv": {opts: map[string]any{"virtualenv": "missing"}, want: []string{"Pulumi.yaml", "virtualenv names " + filepath.Join(dir, "missing"), "python3 -m venv"}},
		"no python":     {env: map[string]string{"PULUMI_PYTHON_CMD": filepath.Join(dir, "nopython")}, want: []string{"needs Python with the Pulumi SDK", "nopython was not found"}},
		"no SDK":        {env: map[string]string{"PULUMI_PYTHON_CMD": noSDK}, want: []string{"needs the Pulumi SDK for Python", noSDK + " cannot import (ModuleNotFoundError: No module named pulumi)", "pip install pulumi"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, ok, err := host(tc.env).Provider(req(tc.opts))
			for _, w := range tc.want {
				if !ok || err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("ok %v, error %v; want one saying %q", ok, err, w)
				}
			}
		})
	}
	for _, tc := range []struct{ runtime, pkg string }{{"yaml", runtime.PythonDynamicPackage}, {"python", "pulumi-nodejs"}} {
		r := req(nil)
		r.Package = tc.pkg
		if _, ok, err := (&runtime.Host{Runtime: tc.runtime}).Provider(r); ok || err != nil {
			t.Errorf("runtime %s, package %s: ok %v, err %v; want not served", tc.runtime, tc.pkg, ok, err)
		}
	}
}

// TestPythonDynamicProviderWithoutSDK runs the check against this
// machine's python3: where the Pulumi SDK for Python is not installed
// (it is not, here: PyPI is not reachable), the provider is refused
// naming the SDK.
func TestPythonDynamicProviderWithoutSDK(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH: the Python dynamic provider cannot be tried")
	}
	if exec.Command(python, "-c", "import pulumi.dynamic").Run() == nil {
		t.Skip("the Pulumi SDK for Python is installed here; TestPythonDynamicProvider covers the command")
	}
	r := langhost.ProviderRequest{Project: &langhost.Project{Name: "p", Dir: t.TempDir(), Runtime: "python"}, Package: runtime.PythonDynamicPackage}
	_, _, err = (&runtime.Host{Runtime: "python", Getenv: func(string) string { return "" }}).Provider(r)
	if err == nil || !strings.Contains(err.Error(), "No module named") || !strings.Contains(err.Error(), "Pulumi SDK for Python") {
		t.Errorf("error = %v, want the missing SDK named", err)
	}
}
