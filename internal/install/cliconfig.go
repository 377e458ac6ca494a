package install

import (
	"errors"
	"fmt"
	"os"

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

var cliConfigSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "host", LabelNames: []string{"name"}}}}

// ReadHosts reads the host blocks of a CLI configuration file: the
// services of each host, which stand in for asking the host's
// /.well-known/terraform.json. A missing file has none. Other settings of
// the file are not read yet.
func ReadHosts(path string) (map[string]map[string]string, error) {
	if path == "" {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the CLI configuration: %w", err)
	}
	f, ds := hclparse.NewParser().ParseHCL(src, path)
	if ds.HasErrors() {
		return nil, fmt.Errorf("the CLI configuration %s is invalid: %w", path, ds)
	}
	content, _, ds := f.Body.PartialContent(cliConfigSchema)
	if ds.HasErrors() {
		return nil, fmt.Errorf("the CLI configuration %s is invalid: %w", path, ds)
	}
	out := map[string]map[string]string{}
	for _, b := range content.Blocks {
		services, err := hostServices(b)
		if err != nil {
			return nil, fmt.Errorf("the CLI configuration %s: host %q: %w", path, b.Labels[0], err)
		}
		out[b.Labels[0]] = services
	}
	return out, nil
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
