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
// Left out for now: provider_installation (mirrors, dev_overrides),
// credentials helpers, module sources other than those above, and Pulumi
// plugins. internal/plugin finds what this
// package installs; neither imports the other.
package install
