package plugin

import "fmt"

// Kind is what a plugin does. Only resource plugins (providers) are
// launched by plinth; the other Pulumi kinds are listed.
type Kind string

// Plugin kinds, as Pulumi names them.
const (
	KindResource  Kind = "resource"
	KindLanguage  Kind = "language"
	KindAnalyzer  Kind = "analyzer"
	KindConverter Kind = "converter"
	KindTool      Kind = "tool"
)

var pulumiKinds = []Kind{KindResource, KindLanguage, KindAnalyzer, KindConverter, KindTool}

// Protocol is the wire protocol a plugin speaks.
type Protocol string

// Protocols.
const (
	ProtocolPulumi    Protocol = "pulumirpc"
	ProtocolTerraform Protocol = "tfplugin"
	// ProtocolMu is the original Mu CRUD protocol, spoken by binaries
	// named mu-resource-<name>.
	ProtocolMu      Protocol = "mu"
	ProtocolBuiltin Protocol = "builtin"
)

// Plugin is one plugin found on disk (or built in).
type Plugin struct {
	Name     string
	Kind     Kind
	Protocol Protocol
	// Version is "" when the file's name and place do not say; for a
	// Pulumi plugin the plugin itself can be asked.
	Version string
	Path    string
	// Origin says which search location it came from.
	Origin Origin
	// Address is a Terraform provider's registry address,
	// host/namespace/name, when its directory layout gives one.
	Address string
}

func (p Plugin) String() string {
	v := p.Version
	if v == "" {
		v = "(version unknown)"
	}
	if p.Path == "" {
		return fmt.Sprintf("%s %s %s", p.binaryKind(), p.Name, v)
	}
	return fmt.Sprintf("%s %s %s at %s", p.binaryKind(), p.Name, v, p.Path)
}

func (p Plugin) binaryKind() string {
	if p.Protocol == ProtocolTerraform {
		return "terraform-provider"
	}
	if p.Protocol == ProtocolBuiltin {
		return "built-in"
	}
	if p.Protocol == ProtocolMu {
		return "mu-resource"
	}
	return "pulumi-" + string(p.Kind)
}

// Origin names a search location.
type Origin string

// Search locations, in the order they are searched. When two plugins have
// the same version, the one found first wins.
const (
	OriginProject        Origin = "project"             // <project>/.plinth/plugins
	OriginPluginPath     Origin = "PLINTH_PLUGIN_PATH"  // each of its directories
	OriginHome           Origin = "plinth home"         // $PLINTH_HOME/plugins
	OriginPulumi         Origin = "pulumi"              // $PULUMI_HOME/plugins
	OriginTerraformLocal Origin = "terraform project"   // <project>/.terraform/providers
	OriginTerraformCache Origin = "TF_PLUGIN_CACHE_DIR" // Terraform's shared cache
	OriginTerraformHome  Origin = "terraform plugins"   // ~/.terraform.d/plugins
	OriginBuiltin        Origin = "built in"
)
