// Package provider declares the engine-facing provider interface: the calls
// the engine makes of a resource provider, shaped like the methods of the
// Pulumi implementer's guide (GetPluginInfo, GetSchema, CheckConfig,
// DiffConfig, Configure, Check, Diff, Create, Read, Update, Delete, Invoke,
// SignalCancellation, Close), with request and response structs so that a new
// field never breaks a caller.
//
// It also holds Fake, a function-field provider for tests. The schema
// model providers describe themselves with is internal/schema's.
//
// Adapters live in sub-packages: inproc (SDK providers in the engine's
// process), pulumirpc (Pulumi-protocol plugins) and tfplugin (Terraform
// providers). This package knows no wire format and starts no process.
package provider
