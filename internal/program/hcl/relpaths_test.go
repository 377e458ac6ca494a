package hcl

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestDiagnosticsNameFilesRelativeToTheRoot: a configuration loaded by
// its absolute directory (plinth -C /abs/dir) names every file in its
// diagnostics relative to that directory, as terraform -chdir does: a
// root file, a module's, a module outside the root ("../shared") and a
// .tfvars file. They were absolute.
func TestDiagnosticsNameFilesRelativeToTheRoot(t *testing.T) {
	bad := "variable \"v\" {\n  nope = 1\n}\n"
	call := func(src string) string { return "module \"m\" {\n  source = \"" + src + "\"\n}\n" }
	cases := map[string]struct {
		files    map[string]string
		varFiles []string
		want     string
	}{
		"root":           {files: map[string]string{"root/variables.tf": bad}, want: "variables.tf"},
		"module":         {files: map[string]string{"root/main.tf": call("./modules/x"), "root/modules/x/main.tf": bad}, want: "modules/x/main.tf"},
		"outside":        {files: map[string]string{"root/main.tf": call("../shared"), "shared/main.tf": bad}, want: "../shared/main.tf"},
		"variables file": {files: map[string]string{"root/main.tf": "variable \"n\" {}\n", "root/x.tfvars": "n = \n"}, varFiles: []string{"x.tfvars"}, want: "x.tfvars"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := Load(filepath.Join(dir, "root"))
			if err == nil {
				_, err = cfg.Program(nil, program.Options{VarFiles: c.varFiles, Getenv: func(string) string { return "" }})
			}
			var ds program.Diagnostics
			if !errors.As(err, &ds) || len(ds) == 0 {
				t.Fatalf("got %v, want diagnostics", err)
			}
			if diff := cmp.Diff(c.want, ds[0].File); diff != "" {
				t.Errorf("file of %q (-want +got):\n%s", ds[0].Summary, diff)
			}
		})
	}
}

// TestLoadNamedFrom: a module loaded as a configuration of its own (a
// plinth test run's module block) names its files from the
// configuration under test, as terraform test does: child/main.tf.
func TestLoadNamedFrom(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "child", "main.tf")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("variable \"v\" {\n  nope = 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadNamedFrom(filepath.Join(dir, "child"), dir)
	var ds program.Diagnostics
	if !errors.As(err, &ds) || len(ds) == 0 {
		t.Fatalf("got %v, want diagnostics", err)
	}
	if diff := cmp.Diff("child/main.tf", ds[0].File); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
}
