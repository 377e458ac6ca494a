package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
)

// mirrorCase is a provider_installation block (%MIRROR% is a filesystem
// mirror directory, %NET% the registry's network mirror URL).
type mirrorCase struct {
	installation string   // "": none, with the mirror in ~/.terraform.d/plugins
	packed       bool     // the filesystem mirror holds zips
	wantLines    []string // lines plinth init prints
}

var mirrorCases = map[string]mirrorCase{
	"filesystem mirror, unpacked": {
		installation: `filesystem_mirror { path = "%MIRROR%" }`,
		wantLines:    []string{"- Installed registry.plinth.test/hashicorp/random v3.9.0 (unauthenticated)"},
	},
	"filesystem mirror, packed": {
		installation: `filesystem_mirror { path = "%MIRROR%" }`, packed: true,
		wantLines: []string{"- Installed registry.plinth.test/hashicorp/time v0.14.1 (unauthenticated)"},
	},
	"network mirror": {
		installation: `network_mirror { url = "%NET%" }`,
		wantLines:    []string{"- Installed registry.plinth.test/hashicorp/random v3.9.0 (verified checksum)"},
	},
	"network mirror for random, direct for the rest": {
		installation: `network_mirror {
    url     = "%NET%"
    include = ["registry.plinth.test/hashicorp/random"]
  }
  direct {
    exclude = ["registry.plinth.test/hashicorp/random"]
  }`,
		wantLines: []string{"- Installed registry.plinth.test/hashicorp/random v3.9.0 (verified checksum)",
			"- Installed registry.plinth.test/hashicorp/time v0.14.1 (signed, key ID K)"},
	},
	"implied mirror ~/.terraform.d/plugins, no provider_installation": {
		wantLines: []string{"- Installed registry.plinth.test/hashicorp/random v3.9.0 (unauthenticated)",
			"- Installed registry.plinth.test/hashicorp/time v0.14.1 (unauthenticated)"},
	},
	"filesystem mirror for time only, direct excluding it": {
		installation: `filesystem_mirror {
    path    = "%MIRROR%"
    include = ["registry.plinth.test/hashicorp/time"]
  }
  direct {
    exclude = ["registry.plinth.test/hashicorp/time"]
  }`, packed: true,
		wantLines: []string{"- Installed registry.plinth.test/hashicorp/random v3.9.0 (signed, key ID K)",
			"- Installed registry.plinth.test/hashicorp/time v0.14.1 (unauthenticated)"},
	},
}

// mirrorEnv writes a CLI configuration with the registry's host block
// and the case's provider_installation, and lays out the filesystem
// mirror.
func mirrorEnv(t *testing.T, srv *registrytest.Server, env map[string]string, tc mirrorCase) map[string]string {
	t.Helper()
	mirror := t.TempDir()
	if tc.installation == "" {
		mirror = filepath.Join(env["HOME"], ".terraform.d", "plugins")
	}
	srv.WriteMirror(t, mirror, madeUpHost, tc.packed)
	inst := strings.NewReplacer("%MIRROR%", mirror, "%NET%", srv.URL+registrytest.MirrorPath).Replace(tc.installation)
	rc := readFile(t, env["TF_CLI_CONFIG_FILE"])
	if inst != "" {
		rc += "provider_installation {\n  " + inst + "\n}\n"
	}
	path := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(path, []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	out["TF_CLI_CONFIG_FILE"] = path
	return out
}

// TestInitWithMirrorsAsTerraform: under each provider_installation,
// plinth init installs from the methods it names, says how each package
// was checked, writes the lock terraform 1.11 writes under the same
// configuration, and plinth up runs with what it installed.
func TestInitWithMirrorsAsTerraform(t *testing.T) {
	tf, tfErr := exec.LookPath("terraform")
	for name, tc := range mirrorCases {
		t.Run(name, func(t *testing.T) {
			srv, base := initRegistry(t)
			env := mirrorEnv(t, srv, base, tc)
			opts := clitest.Options{Env: env}
			byPlinth := initConfig(t, madeUpHost)
			out := keyID.ReplaceAllString(clitest.MustRun(t, byPlinth, opts, "init").Stdout, "key ID K")
			for _, w := range tc.wantLines {
				if !strings.Contains(out, w+"\n") {
					t.Errorf("plinth init does not say %q:\n%s", w, out)
				}
			}
			if up := clitest.MustRun(t, byPlinth, opts, "up", "--yes", "--skip-preview").Stdout; !strings.Contains(up, "Resources: 1 added") {
				t.Fatalf("plinth up after init did not create random_pet.p:\n%s", up)
			}
			if tfErr != nil {
				t.Skip("terraform is not on PATH")
			}
			byTerraform := initConfig(t, madeUpHost)
			tfEnv := append(os.Environ(), "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1")
			for k, v := range env {
				tfEnv = append(tfEnv, k+"="+v)
			}
			clitest.Terraform(t, tf, byTerraform, tfEnv)("init", "-no-color")
			want := readFile(t, filepath.Join(byTerraform, ".terraform.lock.hcl"))
			if diff := cmp.Diff(want, readFile(t, filepath.Join(byPlinth, ".terraform.lock.hcl"))); diff != "" {
				t.Fatalf("plinth's lock file (-terraform's +plinth's):\n%s", diff)
			}
		})
	}
}
