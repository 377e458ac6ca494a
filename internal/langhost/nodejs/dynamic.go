package nodejs

import (
	"github.com/plinth-iac/plinth/internal/langhost"
)

// DynamicPackage is the package of Pulumi's Node.js dynamic provider:
// a pulumi.dynamic.Resource's type is pulumi-nodejs:dynamic:Resource and
// its provider pulumi:providers:pulumi-nodejs.
const DynamicPackage = "pulumi-nodejs"

// dynamicEntry is the @pulumi/pulumi entry that serves dynamic providers:
// what Pulumi's pulumi-resource-pulumi-nodejs script runs with node.
const dynamicEntry = "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"

var _ langhost.ProviderHost = (*Host)(nil)

// Provider implements langhost.ProviderHost: the dynamic provider is node
// running dynamicEntry from the program's own node_modules (found from
// its directory up, as the run entry is), so it deserialises provider
// code with the SDK that serialised it. Its environment is the one
// Pulumi's engine gives it (the project's name, which its Config uses
// for keys without a namespace) plus the stack config in
// PULUMI_CONFIG, so `new pulumi.Config()` inside the provider reads what
// the program reads.
func (h *Host) Provider(req langhost.ProviderRequest) (langhost.Command, bool, error) {
	if req.Package != DynamicPackage {
		return langhost.Command{}, false, nil
	}
	entry, err := findEntry(req.Project, dynamicEntry)
	if err != nil {
		return langhost.Command{}, true, err
	}
	node, err := h.node()
	if err != nil {
		return langhost.Command{}, true, err
	}
	env, err := langhost.ConfigEnv(req.Config, req.SecretKeys)
	if err != nil {
		return langhost.Command{}, true, err
	}
	env = append(env, "PULUMI_NODEJS_PROJECT="+req.Project.Name, "PULUMI_PROJECT="+req.Project.Name)
	return langhost.Command{Path: node, Args: []string{entry}, Env: env}, true, nil
}
