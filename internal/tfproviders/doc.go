// Package tfproviders builds the real Terraform providers plinth's tests run
// against: random, local, time and tls (and null, whose pinned version the Go
// module proxy currently refuses), each from the Go module proxy at a pinned
// version, cached between runs.
//
// The module versions are pseudo-versions of the providers' old module paths;
// Spec.Version records the release each really is (read from its changelog),
// and the cached binary is named terraform-provider-<name>_v<Version> so that
// plugin lookup by semantic version ("~> 3.6") finds it, as Terraform's
// plugin directories name them.
//
// Building runs "go install module@version" in a scratch directory with
// GOFLAGS=-mod=mod and GONOSUMDB for the module (the checksum database does
// not know these pseudo-versions). It takes minutes on a clean machine and
// milliseconds once cached, so test packages call Build (or BuildAll) from
// TestMain. LinkInto lays the binaries out in one directory, as a plugin
// search path holds them. The cache is $PLINTH_TF_PROVIDERS_DIR, or
// <user cache dir>/plinth/tf-providers.
//
// Neighbours: the Terraform adapter's tests (internal/provider/tfplugin) and
// whatever engine or CLI tests need real providers. This package never starts
// a provider; it only makes sure the binary exists.
package tfproviders
