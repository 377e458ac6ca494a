// Package plugin finds provider plugins and picks one by package and
// version. It knows both ecosystems' layouts: Pulumi-protocol binaries
// (pulumi-resource-<name>, bare in a plugin directory or in Pulumi's plugin
// cache as resource-<name>-v<version>/) and Terraform providers
// (terraform-provider-<name>[_v<version>] in a plugin directory, and
// Terraform's <host>/<namespace>/<name>/<version>/<os>_<arch>/ trees in
// ~/.terraform.d/plugins, TF_PLUGIN_CACHE_DIR and a project's
// .terraform/providers), and providers of the original Mu CRUD protocol
// (mu-resource-<name>[_v<version>] in a plugin directory): a binary's name
// says which protocol it speaks (Plugin.Protocol).
//
// A Finder resolves a package and version constraint (">= 6.0",
// Terraform's "~> 3.6") to the newest compatible plugin, as the Pulumi
// implementer's guide describes lookup; a bare Pulumi binary whose version
// only the plugin itself knows is launched, lazily, to ask it. List gives
// what `plinth plugin ls` shows.
//
// It only finds binaries and chooses versions: it imports neither the
// engine nor a protocol adapter. Starting what it finds is
// internal/registry's (the engine's provider source, which picks the
// adapter for a plugin's protocol); the adapters use proc, below, to start
// processes tied to plinth's life. It does not download or install
// plugins.
package plugin
