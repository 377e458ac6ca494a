package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// TestUpChecksProvidersAsTerraformDoes: plinth up in a Terraform
// configuration says, in terraform's words, that plinth init must run
// (naming each provider by its source address, never a URN) when a
// provider is not installed, the lock selects none for it, or the
// installed package's hash is not in the lock; nothing is created.
func TestUpChecksProvidersAsTerraformDoes(t *testing.T) {
	for name, tc := range map[string]struct {
		prepare func(t *testing.T, dir string, opts clitest.Options)
		want    []string
	}{
		"never initialized": {
			want: []string{"Required plugins are not installed", "registry.plinth.test/hashicorp/random: no installed package matches the version constraints", "registry.plinth.test/hashicorp/time: no package is installed", "run:\n      plinth init"},
		},
		"lock lacks a provider": {
			prepare: func(t *testing.T, dir string, opts clitest.Options) {
				clitest.MustRun(t, dir, opts, "init")
				editLock(t, dir, func(s string) string { return s[:strings.Index(s, "provider \"registry.plinth.test/hashicorp/time\"")] })
			},
			want: []string{"Inconsistent dependency lock file", "provider registry.plinth.test/hashicorp/time: required by this configuration but no version is selected", "plinth init"},
		},
		"installed package not in the lock": {
			prepare: func(t *testing.T, dir string, opts clitest.Options) {
				clitest.MustRun(t, dir, opts, "init")
				editLock(t, dir, func(s string) string {
					i := strings.Index(s, "\"h1:")
					return s[:i+4] + "c3RhbGU=" + s[strings.Index(s[i+1:], "\"")+i+1:]
				})
			},
			want: []string{"Inconsistent dependency lock file", "provider registry.plinth.test/hashicorp/random: the installed package for registry.plinth.test/hashicorp/random 3.9.0", "not among the checksums", "plinth init"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, env := initRegistry(t)
			dir := initConfig(t, madeUpHost)
			opts := clitest.Options{Env: env}
			if tc.prepare != nil {
				tc.prepare(t, dir, opts)
			}
			r := clitest.Run(t, dir, opts, "up", "--yes", "--skip-preview")
			if r.Code == 0 {
				t.Fatalf("plinth up ran:\n%s", r.Stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, r.Stderr)
				}
			}
			if strings.Contains(r.Output(), "urn:") {
				t.Errorf("the output names a URN:\n%s", r.Output())
			}
		})
	}
}

func editLock(t *testing.T, dir string, edit func(string) string) {
	t.Helper()
	path := filepath.Join(dir, ".terraform.lock.hcl")
	if err := os.WriteFile(path, []byte(edit(readFile(t, path))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDevOverrides: with dev_overrides for random, plinth init warns as
// terraform does and installs only time; plinth up uses the binary in the
// override directory, warning that it does.
func TestDevOverrides(t *testing.T) {
	srv, env := initRegistry(t)
	_ = srv
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	built, err := tfproviders.BuildAll(context.Background(), cache, "random")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	data, err := os.ReadFile(built["random"])
	if err == nil {
		err = os.WriteFile(filepath.Join(bin, "terraform-provider-random"), data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	rc := readFile(t, env["TF_CLI_CONFIG_FILE"]) + "provider_installation {\n  dev_overrides {\n    \"" + madeUpHost + "/hashicorp/random\" = \"" + bin + "\"\n  }\n  direct {}\n}\n"
	env["TF_CLI_CONFIG_FILE"] = filepath.Join(t.TempDir(), "rc")
	if err := os.WriteFile(env["TF_CLI_CONFIG_FILE"], []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := initConfig(t, madeUpHost)
	opts := clitest.Options{Env: env}
	r := clitest.MustRun(t, dir, opts, "init")
	for _, w := range []string{"Provider development overrides are in effect", " - " + madeUpHost + "/hashicorp/random in " + bin} {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("init's stderr does not say %q:\n%s", w, r.Stderr)
		}
	}
	if !strings.Contains(r.Stdout, "- Skipping "+madeUpHost+"/hashicorp/random: dev_overrides") || strings.Contains(r.Stdout, "Installing "+madeUpHost+"/hashicorp/random") {
		t.Errorf("init did not skip random:\n%s", r.Stdout)
	}
	if lk := readFile(t, filepath.Join(dir, ".terraform.lock.hcl")); strings.Contains(lk, "hashicorp/random") {
		t.Errorf("the lock records the overridden provider:\n%s", lk)
	}
	up := clitest.MustRun(t, dir, opts, "up", "--yes", "--skip-preview")
	if !strings.Contains(up.Stdout, "Resources: 1 added") {
		t.Fatalf("plinth up did not create random_pet.p:\n%s", up.Stdout)
	}
	if !strings.Contains(up.Stderr, "comes from "+bin+", as the CLI configuration's dev_overrides says") {
		t.Errorf("up does not warn of the override:\n%s", up.Stderr)
	}
}

// TestHelpNamesTheProgramFormats: plinth --help describes the three
// program formats and says a Terraform configuration needs plinth init
// (it said only "reads the program in plinth.yaml").
func TestHelpNamesTheProgramFormats(t *testing.T) {
	out := clitest.MustRun(t, t.TempDir(), clitest.Options{}, "--help").Stdout
	for _, w := range []string{"plinth.yaml     plinth's own YAML program", "Pulumi.yaml     a Pulumi program", "*.tf            a Terraform configuration; run plinth init first"} {
		if !strings.Contains(out, w) {
			t.Errorf("--help does not say %q:\n%s", w, out)
		}
	}
}

// TestInitDrawsProgressBarsOnATerminal: on a terminal each package
// download gets a progress bar, ended at 100%; off one (the other init
// tests) the output is plain lines only.
func TestInitDrawsProgressBarsOnATerminal(t *testing.T) {
	_, env := initRegistry(t)
	dir := initConfig(t, madeUpHost)
	out := clitest.MustRun(t, dir, clitest.Options{Env: env, StdoutTerminal: true}, "init").Stdout
	for _, w := range []string{"\r  terraform-provider-random_3.9.0_", "\r  terraform-provider-time_0.14.1_", "100% "} {
		if !strings.Contains(out, w) {
			t.Errorf("init on a terminal does not draw %q:\n%q", w, out)
		}
	}
	plain := clitest.MustRun(t, initConfig(t, madeUpHost), clitest.Options{Env: env}, "init").Stdout
	if strings.Contains(plain, "\r") {
		t.Errorf("init off a terminal draws progress:\n%q", plain)
	}
}
