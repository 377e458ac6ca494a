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

// TestUpRehashesAProviderChangedWithTimesPutBack: once a command has
// checked a provider package against the lock (recording its binary's
// sum in the schema cache), a binary rewritten in place with the same
// size and its modification time put back is hashed again and refused,
// as is one whose cache record is damaged. An unchanged binary is not
// read again: the recorded sum stands for it (a record made to lie is
// believed, and the package refused).
func TestUpRehashesAProviderChangedWithTimesPutBack(t *testing.T) {
	for name, change := range map[string]func(t *testing.T, dir string, records []string){
		"binary changed, record kept": func(t *testing.T, dir string, _ []string) { tamperKeepingStamp(t, dir, "terraform-provider-random*") },
		"binary changed, record damaged": func(t *testing.T, dir string, records []string) {
			editFiles(t, records, func(string) string { return "garbage" })
			tamperKeepingStamp(t, dir, "terraform-provider-random*")
		},
		"binary unchanged, record lies": func(t *testing.T, _ string, records []string) {
			editFiles(t, records, func(s string) string { return s[:strings.Index(s, "sha256:")+7] + strings.Repeat("0", 64) + "\n" })
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, env := initRegistry(t)
			cache := t.TempDir()
			env["PLINTH_SCHEMA_CACHE"] = cache
			dir := initConfig(t, madeUpHost)
			opts := clitest.Options{Env: env}
			clitest.MustRun(t, dir, opts, "init")
			clitest.Run(t, dir, opts, "preview") // checks the lock, recording the sums
			records, _ := filepath.Glob(filepath.Join(cache, "sums", "*"))
			if len(records) == 0 {
				t.Fatalf("the check recorded no sums under %s", cache)
			}
			change(t, dir, records)
			r := clitest.Run(t, dir, opts, "up", "--yes", "--skip-preview")
			if r.Code == 0 || !strings.Contains(r.Stderr, "not among the checksums") {
				t.Fatalf("plinth up with a changed random binary: code %d, want the lock's refusal:\n%s", r.Code, r.Output())
			}
		})
	}
}

func editFiles(t *testing.T, paths []string, edit func(string) string) {
	t.Helper()
	for _, p := range paths {
		if err := os.WriteFile(p, []byte(edit(readFile(t, p))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tamperKeepingStamp changes one byte of the installed binary matching
// pattern under dir's .terraform, keeping its size and putting back its
// modification time. The binary must be the work directory's own copy,
// never a link into a cache other tests share.
func tamperKeepingStamp(t *testing.T, dir, pattern string) {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(dir, ".terraform", "providers", "*", "*", "*", "*", "*", pattern))
	if len(found) != 1 {
		t.Fatalf("installed binaries matching %s: %v, want one", pattern, found)
	}
	real, err := filepath.EvalSymlinks(found[0])
	if err != nil || !strings.HasPrefix(real, dir) {
		t.Fatalf("the binary %s resolves to %s (%v), outside the work directory", found[0], real, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(real, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	off := fi.Size() - 1
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(real, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
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
