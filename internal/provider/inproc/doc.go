// Package inproc serves a provider written with plinth's Go SDK
// (sdk/provider) to the engine in the engine's own process: it adapts the
// SDK's generic Provider to the engine-facing provider.Provider interface,
// converting requests, responses, the schema and errors (an SDK InitError
// becomes a provider.InitError, so a partly created resource is recorded).
// A resource's private data, which the SDK returns as the output
// sdk.PrivateProperty, becomes the engine's private data (private.go).
//
// Both sides use sdk/resource values, so no value is re-encoded and secrets
// and unknowns pass through untouched. It starts no process and speaks no
// wire protocol; its neighbours are internal/provider (the interface it
// implements), sdk/provider (what it adapts) and the CLI, which builds one
// around each built-in provider (providers/plinth) the engine asks for.
package inproc
