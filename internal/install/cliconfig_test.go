package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

func TestReadCLIConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraformrc")
	text := `
plugin_cache_dir = "/somewhere"
host "registry.example.com" {
  services = {
    "providers.v1" = "https://10.0.0.1/v1/providers/"
    "modules.v1"   = "https://10.0.0.1/v1/modules/"
  }
}
credentials "registry.example.com" {
  token = "from-config"
}
credentials "other-registry.example.com" {
  token = "other"
}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	conf, err := ReadCLIConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := CLIConfig{
		Hosts: map[string]map[string]string{"registry.example.com": {
			"providers.v1": "https://10.0.0.1/v1/providers/", "modules.v1": "https://10.0.0.1/v1/modules/"}},
		Tokens:         map[string]string{"registry.example.com": "from-config", "other-registry.example.com": "other"},
		PluginCacheDir: "/somewhere",
	}
	if diff := cmp.Diff(want, conf); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	env := map[string]string{"TF_TOKEN_other__registry_example_com": "from-env"}
	token := conf.TokenFunc(func(k string) string { return env[k] })
	got := map[string]string{}
	for _, h := range []string{"registry.example.com", "other-registry.example.com", "unknown.example.com"} {
		got[h] = token(h)
	}
	if diff := cmp.Diff(map[string]string{"registry.example.com": "from-config", "other-registry.example.com": "from-env", "unknown.example.com": ""}, got); diff != "" {
		t.Fatalf("tokens (-want +got):\n%s", diff)
	}
}

func TestReadCLIConfigMissingOrBad(t *testing.T) {
	if conf, err := ReadCLIConfig(filepath.Join(t.TempDir(), "none")); err != nil || len(conf.Hosts)+len(conf.Tokens) != 0 {
		t.Fatalf("a missing file: %v, %v; want nothing", conf, err)
	}
	path := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(path, []byte(`host "h" { services = "x" }`), 0o644)
	if _, err := ReadCLIConfig(path); err == nil {
		t.Fatal("services as a string was accepted")
	}
}

func TestReadProviderInstallation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraformrc")
	text := `
provider_installation {
  dev_overrides {
    "hashicorp/random" = "/src/random"
  }
  filesystem_mirror {
    path    = "/mirror"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    exclude = ["hashicorp/time", "example.com/*/*"]
  }
  direct {}
}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	conf, err := ReadCLIConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Installation{Explicit: true,
		DevOverrides: map[string]string{"registry.terraform.io/hashicorp/random": "/src/random"},
		Methods: []MethodConfig{
			{Kind: FilesystemMirror, Location: "/mirror", Include: []Pattern{{"example.com", "*", "*"}}},
			{Kind: NetworkMirror, Location: "https://mirror.example.com/providers/",
				Exclude: []Pattern{{"registry.terraform.io", "hashicorp", "time"}, {"example.com", "*", "*"}}},
			{Kind: Direct},
		}}
	if diff := cmp.Diff(want, conf.Installation); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	admits := map[string]bool{}
	for _, src := range []string{"hashicorp/random", "hashicorp/time", "example.com/a/b"} {
		p, err := tfaddr.ParseProviderSource(src)
		if err != nil {
			t.Fatal(err)
		}
		admits[src] = conf.Installation.Methods[1].Includes(p)
	}
	if diff := cmp.Diff(map[string]bool{"hashicorp/random": true, "hashicorp/time": false, "example.com/a/b": false}, admits); diff != "" {
		t.Errorf("the network mirror admits (-want +got):\n%s", diff)
	}
}

// TestReadProviderInstallationRefusals: each mistake is refused naming
// the setting and what is wanted.
func TestReadProviderInstallationRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ block, want string }{
		"unknown method":       {`mirror {}`, `unknown block "mirror"`},
		"relative path":        {`filesystem_mirror { path = "mirror" }`, `must be given, as an absolute directory name`},
		"no path":              {`filesystem_mirror {}`, `must be given, as an absolute directory name`},
		"http mirror":          {`network_mirror { url = "http://mirror.example.com/" }`, "must be served over https"},
		"wildcard then a name": {`direct { include = ["*/hashicorp/random"] }`, "after a * every part must be * too"},
		"partial wildcard":     {`direct { exclude = ["hashicorp/rand*"] }`, "* must be a whole part"},
		"too many parts":       {`direct { exclude = ["a/b/c/d"] }`, "must be HOSTNAME/NAMESPACE/TYPE or NAMESPACE/TYPE"},
		"include not a list":   {`direct { include = "hashicorp/*" }`, "must be a list of strings"},
		"unknown argument":     {`direct { path = "/x" }`, `unexpected argument "path"`},
		"bad override address": {`dev_overrides { "not an address!" = "/x" }`, "is not a provider source address"},
		"two blocks":           {"direct {}\n}\nprovider_installation {\n  direct {}", "only one provider_installation block"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraformrc")
			os.WriteFile(path, []byte("provider_installation {\n  "+tc.block+"\n}\n"), 0o644)
			_, err := ReadCLIConfig(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
