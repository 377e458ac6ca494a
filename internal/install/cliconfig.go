package install

import (
	"errors"
	"fmt"
	"os"
	"strings"

	hcl1 "github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/token"
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

// CLIConfig is what plinth reads of terraform's CLI configuration.
type CLIConfig struct {
	// Hosts are the host blocks: each host's services.
	Hosts map[string]map[string]string
	// Tokens are the credentials blocks' tokens by host.
	Tokens map[string]string
	// PluginCacheDir is plugin_cache_dir as written ($VARIABLES not yet
	// expanded).
	PluginCacheDir string
	// Installation is the provider_installation block.
	Installation Installation
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

// ReadCLIConfig reads a CLI configuration file: its host blocks (the
// services of each host, which stand in for asking the host's
// /.well-known/terraform.json), credentials blocks, plugin_cache_dir and
// provider_installation. A missing file has none of them. Other settings
// are ignored. The file is HCL 1, as terraform reads it (dev_overrides
// has quoted keys, which HCL 2 does not allow).
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
	f, err := hcl1.ParseBytes(src)
	if err != nil {
		return out, fmt.Errorf("the CLI configuration %s is invalid: %w", path, err)
	}
	root, _ := f.Node.(*ast.ObjectList)
	if root == nil {
		return out, nil
	}
	for _, it := range root.Items {
		if err := out.readItem(it); err != nil {
			return out, fmt.Errorf("the CLI configuration %s: %s: %w", path, itemName(it), err)
		}
	}
	return out, nil
}

// readItem reads one top-level setting or block.
func (c *CLIConfig) readItem(it *ast.ObjectItem) error {
	keys := itemKeys(it)
	var err error
	switch {
	case keys[0] == "plugin_cache_dir" && len(keys) == 1:
		c.PluginCacheDir, err = literal(it.Val, "a directory name")
	case keys[0] == "host" && len(keys) == 2:
		c.Hosts[keys[1]], err = hostServices(it.Val)
	case keys[0] == "credentials" && len(keys) == 2:
		c.Tokens[keys[1]], err = credentialsToken(it.Val)
	case keys[0] == "provider_installation" && len(keys) == 1:
		if c.Installation.Explicit {
			return errors.New("only one provider_installation block is allowed")
		}
		c.Installation, err = readInstallation(it.Val)
	}
	return err
}

func itemKeys(it *ast.ObjectItem) []string {
	out := make([]string, len(it.Keys))
	for i, k := range it.Keys {
		out[i], _ = k.Token.Value().(string)
	}
	return out
}

func itemName(it *ast.ObjectItem) string {
	keys := itemKeys(it)
	if len(keys) > 1 {
		return fmt.Sprintf("%s %q", keys[0], keys[1])
	}
	return keys[0]
}

// body is a block's or object's items.
func body(n ast.Node, what string) ([]*ast.ObjectItem, error) {
	o, ok := n.(*ast.ObjectType)
	if !ok || o.List == nil {
		return nil, fmt.Errorf("%s must be a block or an object { ... }", what)
	}
	return o.List.Items, nil
}

// literal is a string value.
func literal(n ast.Node, what string) (string, error) {
	l, ok := n.(*ast.LiteralType)
	if !ok || l.Token.Type != token.STRING {
		return "", fmt.Errorf("must be a string (%s)", what)
	}
	s, _ := l.Token.Value().(string)
	return s, nil
}

// strings is a list of strings.
func stringList(n ast.Node) ([]string, error) {
	l, ok := n.(*ast.ListType)
	if !ok {
		return nil, errors.New("must be a list of strings")
	}
	out := make([]string, len(l.List))
	for i, e := range l.List {
		s, err := literal(e, "each element")
		if err != nil {
			return nil, fmt.Errorf("element %d %w", i, err)
		}
		out[i] = s
	}
	return out, nil
}

func credentialsToken(n ast.Node) (string, error) {
	items, err := body(n, "credentials")
	if err != nil {
		return "", err
	}
	for _, it := range items {
		if itemKeys(it)[0] == "token" {
			t, err := literal(it.Val, "the API token")
			if err != nil {
				return "", fmt.Errorf("token %w", err)
			}
			return t, nil
		}
	}
	return "", nil
}

func hostServices(n ast.Node) (map[string]string, error) {
	items, err := body(n, "host")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, it := range items {
		if itemKeys(it)[0] != "services" {
			continue
		}
		services, err := body(it.Val, "services (a map of service names to URLs)")
		if err != nil {
			return nil, err
		}
		for _, s := range services {
			name := itemKeys(s)[0]
			if out[name], err = literal(s.Val, "a URL"); err != nil {
				return nil, fmt.Errorf("service %s %w", name, err)
			}
		}
	}
	return out, nil
}
