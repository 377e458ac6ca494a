package install

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// CLIConfigPath is where terraform's CLI configuration is:
// TF_CLI_CONFIG_FILE, else ~/.terraformrc; "" for neither.
func CLIConfigPath(getenv func(string) string) string {
	if p := getenv("TF_CLI_CONFIG_FILE"); p != "" {
		return p
	}
	if home := getenv("HOME"); home != "" {
		return home + "/.terraformrc"
	}
	return ""
}

var cliConfigSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "plugin_cache_dir"}}, Blocks: []hcl.BlockHeaderSchema{
	{Type: "host", LabelNames: []string{"name"}}, {Type: "credentials", LabelNames: []string{"host"}},
}}

// CLIConfig is what plinth reads of terraform's CLI configuration.
type CLIConfig struct {
	// Hosts are the host blocks: each host's services.
	Hosts map[string]map[string]string
	// Tokens are the credentials blocks' tokens by host.
	Tokens map[string]string
	// PluginCacheDir is plugin_cache_dir as written ($VARIABLES not yet
	// expanded).
	PluginCacheDir string
}

// TokenVariable is the environment variable terraform reads a host's
// API token from: TF_TOKEN_ and the host with "-" as "__" and "." as "_".
func TokenVariable(host string) string {
	return "TF_TOKEN_" + strings.NewReplacer("-", "__", ".", "_").Replace(host)
}

// TokenFunc is a Registry's Token: the host's TF_TOKEN_ variable, else
// its credentials block.
func (c CLIConfig) TokenFunc(getenv func(string) string) func(host string) string {
	return func(host string) string {
		if t := getenv(TokenVariable(host)); t != "" {
			return t
		}
		return c.Tokens[host]
	}
}

// ReadCLIConfig reads the host blocks of a CLI configuration file (the
// services of each host, which stand in for asking the host's
// /.well-known/terraform.json), its credentials blocks and
// plugin_cache_dir. A missing
// file has neither. Other settings of the file are not read yet.
func ReadCLIConfig(path string) (CLIConfig, error) {
	out := CLIConfig{Hosts: map[string]map[string]string{}, Tokens: map[string]string{}}
	if path == "" {
		return out, nil
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("reading the CLI configuration: %w", err)
	}
	f, ds := hclparse.NewParser().ParseHCL(src, path)
	if ds.HasErrors() {
		return out, fmt.Errorf("the CLI configuration %s is invalid: %w", path, ds)
	}
	content, _, ds := f.Body.PartialContent(cliConfigSchema)
	if ds.HasErrors() {
		return out, fmt.Errorf("the CLI configuration %s is invalid: %w", path, ds)
	}
	if a := content.Attributes["plugin_cache_dir"]; a != nil {
		v, ds := a.Expr.Value(nil)
		if ds.HasErrors() || v.Type() != cty.String || v.IsNull() {
			return out, fmt.Errorf("the CLI configuration %s: plugin_cache_dir must be a directory name", path)
		}
		out.PluginCacheDir = v.AsString()
	}
	for _, b := range content.Blocks {
		if b.Type == "credentials" {
			out.Tokens[b.Labels[0]], err = credentialsToken(b)
		} else {
			out.Hosts[b.Labels[0]], err = hostServices(b)
		}
		if err != nil {
			return out, fmt.Errorf("the CLI configuration %s: %s %q: %w", path, b.Type, b.Labels[0], err)
		}
	}
	return out, nil
}

func credentialsToken(b *hcl.Block) (string, error) {
	attrs, ds := b.Body.JustAttributes()
	if ds.HasErrors() {
		return "", ds
	}
	a := attrs["token"]
	if a == nil {
		return "", nil
	}
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() {
		return "", ds
	}
	if v.Type() != cty.String || v.IsNull() {
		return "", errors.New("token must be a string")
	}
	return v.AsString(), nil
}

func hostServices(b *hcl.Block) (map[string]string, error) {
	attrs, ds := b.Body.JustAttributes()
	if ds.HasErrors() {
		return nil, ds
	}
	out := map[string]string{}
	a := attrs["services"]
	if a == nil {
		return out, nil
	}
	v, ds := a.Expr.Value(nil)
	if ds.HasErrors() {
		return nil, ds
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return nil, errors.New("services must be a map of service names to URLs")
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if e.Type() != cty.String || e.IsNull() {
			return nil, fmt.Errorf("service %s must be a URL string", k.AsString())
		}
		out[k.AsString()] = e.AsString()
	}
	return out, nil
}
