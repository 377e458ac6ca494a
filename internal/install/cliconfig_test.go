package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
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
