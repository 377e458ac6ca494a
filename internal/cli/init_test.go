package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// madeUpHost is the registry host the init tests' configurations name; a
// CLI-configuration host block points it at the local registry.
const madeUpHost = "registry.plinth.test"

// initRegistry serves the real random (3.9.0, and the same bytes as an
// older 3.5.1) and time providers, and writes the CA file and a CLI
// configuration whose host block names it.
func initRegistry(t *testing.T) (*registrytest.Server, map[string]string) {
	t.Helper()
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	built, err := tfproviders.BuildAll(context.Background(), cache, "random", "time")
	if err != nil {
		t.Fatal(err)
	}
	srv := registrytest.New(t,
		registrytest.Release{Namespace: "hashicorp", Type: "random", Version: "3.5.1", Binary: built["random"]},
		registrytest.Release{Namespace: "hashicorp", Type: "random", Version: "3.9.0", Binary: built["random"]},
		registrytest.Release{Namespace: "hashicorp", Type: "time", Version: "0.14.1", Binary: built["time"]})
	// The registry is private: both tools must send TF_TOKEN_'s token.
	srv.Token = "s3cret"
	rc := filepath.Join(t.TempDir(), "terraformrc")
	conf := "host \"" + madeUpHost + "\" {\n  services = {\n    \"providers.v1\" = \"" + srv.URL + "/v1/providers/\"\n    \"modules.v1\" = \"" + srv.URL + "/v1/modules/\"\n  }\n}\n"
	if err := os.WriteFile(rc, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, map[string]string{"SSL_CERT_FILE": srv.WriteCA(t), "TF_CLI_CONFIG_FILE": rc, "HOME": t.TempDir(),
		"TF_TOKEN_registry_plinth_test": "s3cret"}
}

// initConfig copies testdata/terraform/init with its sources naming host.
func initConfig(t *testing.T, host string) string {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "terraform", "init"))
	for _, f := range []string{"main.tf", filepath.Join("mod", "main.tf")} {
		path := filepath.Join(dir, f)
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(readFile(t, path), "REGISTRY", host)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var keyID = regexp.MustCompile(`key ID [0-9A-F]{16}`)

// TestInitInstallsProvidersThenUpUsesThem: plinth init prints what it
// installs, as terraform init does, writes the lock, and plinth up then
// runs the configuration with the installed providers; a second init
// reuses both.
func TestInitInstallsProvidersThenUpUsesThem(t *testing.T) {
	_, env := initRegistry(t)
	dir := initConfig(t, madeUpHost)
	opts := clitest.Options{Env: env}
	out := keyID.ReplaceAllString(clitest.MustRun(t, dir, opts, "init").Stdout, "key ID K")
	want := `Initializing modules...
- mod in mod
Initializing provider plugins...
- Finding registry.plinth.test/hashicorp/random versions matching ">= 3.0.0, ~> 3.6, < 4.0.0"...
- Installing registry.plinth.test/hashicorp/random v3.9.0...
- Installed registry.plinth.test/hashicorp/random v3.9.0 (signed, key ID K)
- Finding latest version of registry.plinth.test/hashicorp/time...
- Installing registry.plinth.test/hashicorp/time v0.14.1...
- Installed registry.plinth.test/hashicorp/time v0.14.1 (signed, key ID K)

Plinth has created a lock file .terraform.lock.hcl to record the provider
selections it made above. Include this file in your version control repository
so that plinth and terraform can guarantee to make the same selections by
default when you run "plinth init" or "terraform init" in the future.

Plinth has been successfully initialized!
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Fatalf("plinth init output (-want +got):\n%s", diff)
	}
	lockText := readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))
	if up := clitest.MustRun(t, dir, opts, "up", "--yes", "--skip-preview").Stdout; !strings.Contains(up, "Resources: 1 added") {
		t.Fatalf("plinth up after init did not create random_pet.p:\n%s", up)
	}
	again := clitest.MustRun(t, dir, opts, "init").Stdout
	for _, w := range []string{"- Reusing previous version of registry.plinth.test/hashicorp/random from the dependency lock file",
		"- Using previously-installed registry.plinth.test/hashicorp/random v3.9.0"} {
		if !strings.Contains(again, w) {
			t.Errorf("a second init does not say %q:\n%s", w, again)
		}
	}
	if got := readFile(t, filepath.Join(dir, ".terraform.lock.hcl")); got != lockText {
		t.Errorf("a second init changed the lock file:\n%s", cmp.Diff(lockText, got))
	}
}

// TestInitWithAPluginCacheThenUp: with TF_PLUGIN_CACHE_DIR the packages
// are unpacked into the cache and linked into .terraform/providers, and
// plinth up finds them through the links.
func TestInitWithAPluginCacheThenUp(t *testing.T) {
	_, env := initRegistry(t)
	env["TF_PLUGIN_CACHE_DIR"] = t.TempDir()
	dir := initConfig(t, madeUpHost)
	opts := clitest.Options{Env: env}
	clitest.MustRun(t, dir, opts, "init")
	linked := filepath.Join(dir, ".terraform", "providers", madeUpHost, "hashicorp", "random", "3.9.0", runtime.GOOS+"_"+runtime.GOARCH)
	if target, err := os.Readlink(linked); err != nil || !strings.HasPrefix(target, env["TF_PLUGIN_CACHE_DIR"]) {
		t.Fatalf("%s links to %q (%v), want a directory in the plugin cache", linked, target, err)
	}
	if up := clitest.MustRun(t, dir, opts, "up", "--yes", "--skip-preview").Stdout; !strings.Contains(up, "Resources: 1 added") {
		t.Fatalf("plinth up after init did not create random_pet.p:\n%s", up)
	}
}

// TestInitRefusesAPackageTheLockDoesNotList: the lock names other hashes
// for the chosen version; init fails naming both and what to run, and
// installs nothing.
func TestInitRefusesAPackageTheLockDoesNotList(t *testing.T) {
	_, env := initRegistry(t)
	dir := initConfig(t, madeUpHost)
	stale := "provider \"registry.plinth.test/hashicorp/random\" {\n  version = \"3.9.0\"\n  hashes = [\"h1:c3RhbGU=\"]\n}\n"
	if err := os.WriteFile(filepath.Join(dir, ".terraform.lock.hcl"), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(t, dir, clitest.Options{Env: env}, "init")
	for _, w := range []string{"registry.plinth.test/hashicorp/random v3.9.0", "h1:c3RhbGU=", "zh:", "plinth init --upgrade"} {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, r.Stderr)
		}
	}
	if r.Code != 1 {
		t.Errorf("exit %d, want 1", r.Code)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "providers", madeUpHost, "hashicorp", "random", "3.9.0")); err == nil {
		t.Errorf("the refused package was installed")
	}
	if got := readFile(t, filepath.Join(dir, ".terraform.lock.hcl")); got != stale {
		t.Errorf("the lock file was rewritten:\n%s", got)
	}
}

// TestInitWritesTerraformsLockFile: terraform init and plinth init,
// against the same registry, write the same lock file; each then accepts
// the other's lock and installed providers without changing the lock.
func TestInitWritesTerraformsLockFile(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	_, env := initRegistry(t)
	opts := clitest.Options{Env: env}
	tfEnv := append(os.Environ(), "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
	for k, v := range env {
		tfEnv = append(tfEnv, k+"="+v)
	}
	byPlinth, byTerraform := initConfig(t, madeUpHost), initConfig(t, madeUpHost)
	clitest.MustRun(t, byPlinth, opts, "init")
	clitest.Terraform(t, tf, byTerraform, tfEnv)("init", "-no-color")
	want := readFile(t, filepath.Join(byTerraform, ".terraform.lock.hcl"))
	if diff := cmp.Diff(want, readFile(t, filepath.Join(byPlinth, ".terraform.lock.hcl"))); diff != "" {
		t.Fatalf("plinth's lock file (-terraform's +plinth's):\n%s", diff)
	}
	clitest.MustRun(t, byTerraform, opts, "init")
	clitest.Terraform(t, tf, byPlinth, tfEnv)("init", "-no-color")
	for _, dir := range []string{byPlinth, byTerraform} {
		if diff := cmp.Diff(want, readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))); diff != "" {
			t.Errorf("the other tool changed the lock in %s:\n%s", dir, diff)
		}
	}
}
