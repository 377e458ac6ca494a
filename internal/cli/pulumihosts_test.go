package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/langhost/golang"
	"github.com/plinth-iac/plinth/internal/langhost/nodejs"
	"github.com/plinth-iac/plinth/internal/langhost/runtime"
)

// TestHosts: nodejs runs through plinth's own launch; yaml, python,
// dotnet and java through Pulumi's language hosts; go through
// pulumi-language-go when one is on PATH, else through plinth's own
// runner, which builds under PLINTH_HOME when it is set; any other
// runtime is refused.
func TestHosts(t *testing.T) {
	withGoHost := t.TempDir()
	if err := os.WriteFile(filepath.Join(withGoHost, "pulumi-language-go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, runtime, path, home string
		want                      string
	}{
		{name: "nodejs", runtime: "nodejs", want: "plinth's node launch"},
		{name: "yaml", runtime: "yaml", want: "pulumi-language-yaml"},
		{name: "python", runtime: "python", want: "pulumi-language-python"},
		{name: "go without a host", runtime: "go", home: "/home/u/plinth", want: "plinth's Go runner in /home/u/plinth/go-builds"},
		{name: "go without PLINTH_HOME", runtime: "go", want: "plinth's Go runner in the user cache"},
		{name: "go with pulumi-language-go", runtime: "go", path: withGoHost, want: "pulumi-language-go"},
		{name: "ruby", runtime: "ruby", want: `Pulumi.yaml: runtime "ruby" is not supported by plinth; the runtimes it runs are dotnet, go, java, nodejs, python, yaml`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"PLINTH_HOME": tc.home, "PATH": tc.path, "HOME": t.TempDir()}
			p := &langhost.Project{File: "Pulumi.yaml", Dir: t.TempDir(), Runtime: tc.runtime}
			host, err := hosts(func(k string) string { return env[k] }).For(p)
			if gh, ok := host.(*goHost); ok {
				host = gh.pick(p)
			}
			got := describeHost(host, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("runtime %s (-want +got):\n%s", tc.runtime, diff)
			}
		})
	}
}

// describeHost says in words which host runs a program.
func describeHost(host langhost.Host, err error) string {
	switch h := host.(type) {
	case *nodejs.Host:
		return "plinth's node launch"
	case *runtime.Host:
		return runtime.Binary(h.Runtime)
	case *golang.Host:
		if h.BuildDir == "" {
			return "plinth's Go runner in the user cache"
		}
		return "plinth's Go runner in " + h.BuildDir
	}
	return err.Error()
}
