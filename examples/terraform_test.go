package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// TestTerraformExampleInitThenUp runs examples/terraform as run.sh does:
// plinth init installs random and local from a local registry standing
// in for registry.terraform.io (a CLI configuration host block and
// SSL_CERT_FILE, as localregistry writes them), then up creates the pets
// and their notes, a preview finds nothing to do, and destroy removes
// them.
func TestTerraformExampleInitThenUp(t *testing.T) {
	if testing.Short() {
		t.Skip("real Terraform providers are not built in -short mode")
	}
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	var releases []registrytest.Release
	for _, name := range []string{"random", "local"} {
		spec, _ := tfproviders.Lookup(name)
		bin, err := tfproviders.Build(context.Background(), cache, spec)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, registrytest.Release{Namespace: "hashicorp", Type: name, Version: spec.Version, Binary: bin})
	}
	srv := registrytest.New(t, releases...)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(rc, []byte(srv.HostBlock("registry.terraform.io")), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := clitest.Options{Env: map[string]string{"TF_CLI_CONFIG_FILE": rc, "SSL_CERT_FILE": srv.WriteCA(t),
		"HOME": t.TempDir(), "PLINTH_PASSPHRASE": "example"}}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(readFile(t, filepath.Join("terraform", "main.tf"))), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := clitest.Run(t, dir, opts, "up", "--yes"); r.Code == 0 || !strings.Contains(r.Stderr, "plinth init") {
		t.Fatalf("up before init: exit %d, want a refusal saying to run plinth init:\n%s", r.Code, r.Stderr)
	}
	init := clitest.MustRun(t, dir, opts, "init").Stdout
	for _, w := range []string{"- Installed hashicorp/local v2.9.0 (signed, key ID ", "- Installed hashicorp/random v3.9.0 (signed, key ID "} {
		if !strings.Contains(init, w) {
			t.Errorf("init does not say %q:\n%s", w, init)
		}
	}
	clitest.MustRun(t, dir, opts, "up", "--yes")
	notes := []string{filepath.Join(dir, "out", "pet-0.txt"), filepath.Join(dir, "out", "pet-1.txt")}
	for _, n := range notes {
		if !strings.HasPrefix(readFile(t, n), "Pet ") {
			t.Errorf("%s does not name a pet", n)
		}
	}
	if r := clitest.Run(t, dir, opts, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Fatalf("preview after up: exit %d, want 0\n%s", r.Code, r.Output())
	}
	clitest.MustRun(t, dir, opts, "destroy", "--yes")
	for _, n := range notes {
		if _, err := os.Stat(n); !os.IsNotExist(err) {
			t.Errorf("after destroy %s still exists (%v)", n, err)
		}
	}
}
