// Package registry is the engine's provider source: given a package and a
// version constraint (engine.ProviderRequest), it picks a provider and
// starts it. A built-in provider runs in process when its version fits;
// otherwise internal/plugin finds the newest compatible plugin binary and
// the registry starts it with the adapter for its protocol: Pulumi-protocol
// plugins through internal/provider/pulumirpc, Terraform providers through
// internal/provider/tfplugin, Mu-protocol providers (mu-resource-<name>)
// through internal/provider/mu, all wired the same way (Pulumi, Terraform
// and Mu make a Launcher from the adapter's configuration).
//
// Ahead of both, a Source may host a package itself (Hosted): a
// Pulumi-protocol provider started from a command it is given rather than
// a binary it finds, configured with a base config beneath the engine's
// inputs. A Pulumi program's dynamic provider (pulumi-nodejs) is one: node
// on the program's own @pulumi/pulumi, with the stack config, described
// by internal/langhost and wired by the CLI.
//
// A command that knows its plugins before it loads its state may
// Prestart them (prestart.go): NewProvider hands a prestarted provider to
// the first request that picks the same binary, and Release closes the
// rest when the command ends.
//
// The CLI builds a Source and hands it to the engine; the engine sees only
// its ProviderSource interface. internal/plugin, below, only finds binaries
// and chooses versions: it imports neither the engine nor an adapter. The
// registry does not download or install plugins.
package registry
