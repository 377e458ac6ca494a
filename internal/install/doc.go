// Package install installs Terraform providers from provider registries
// into a configuration's .terraform/providers, as terraform init does, and
// keeps the dependency lock file (internal/install/lock).
//
// ModuleInstaller installs the modules a configuration calls into
// .terraform/modules and writes modules.json as terraform 1.11 does:
// registry modules (modules.v1 versions and download, whose
// X-Terraform-Get names the package), git:: sources (cloned with the git
// executable, ?ref= checked out, //subdir), and http(s) archives. Local
// paths are only recorded. Nothing is moved into place until every
// module is fetched. internal/program/hcl loads what it installed.
//
// Registry speaks the provider registry protocol: service discovery
// (https://HOST/.well-known/terraform.json, or a CLI configuration host
// block), providers.v1 versions and download endpoints. Every package is
// verified as terraform verifies it: SHA256SUMS carries an OpenPGP
// signature by one of the keys the registry lists for the provider, it
// lists the zip with the checksum the registry gave, the zip has that
// checksum, and, once unpacked, its h1: or zh: hash is one the lock file
// lists for the version (when the lock lists any). A package that fails
// any check is never left on disk.
//
// Installer chooses versions: the locked one unless upgrading, else the
// newest the constraints allow. The constraints come from the caller
// (internal/cli reads them from the configuration).
//
// A private registry's token comes from TF_TOKEN_HOST or a CLI
// configuration credentials block (CLIConfig).
//
// With a plugin cache (Installer.CacheDir) packages are unpacked there and
// linked into the configuration, as terraform links them.
//
// The CLI configuration's provider_installation (Installation) chooses
// each provider's installation methods: filesystem mirrors (packed zips
// or unpacked directories, linked), network mirrors (the provider network
// mirror protocol; packages checked against the hashes they list) and
// direct (the registry), with include and exclude patterns; dev_overrides
// are skipped (internal/plugin uses their binaries). Without the block,
// terraform's implied local mirror directories (ImpliedMirrorDirs) serve
// the providers they hold, the registry the rest.
//
// PluginInstaller installs Pulumi resource plugins into Pulumi's plugin
// cache as the pulumi CLI does (pluginDownloadURL, release tarball names,
// resource-NAME-vVERSION with .lock and .partial beside it, checksums
// where published): for plinth plugin install and, through
// internal/registry's Install hook that the CLI fills, for programs that
// name a version not on disk.
//
// Left out for now: credentials helpers and module sources other than
// those above.
// internal/plugin finds what this package installs; neither imports the
// other.
package install
