// Package mu drives a resource provider that speaks the original Mu
// protocol (plinth's spec 003): Create, Read, Update and Delete of a
// resource named by its type token and described by a property bag, over
// gRPC (service mu.ResourceProvider, generated into internal/provider/mu/mupb).
//
// The protocol has nothing else, so the adapter answers the rest of
// provider.Provider itself: Check takes the inputs as given, Diff answers
// DiffUnknown so the engine compares old and new inputs itself (an update,
// never a replacement: the protocol has no replace keys), configuration is
// accepted and not sent, there is no schema and there are no functions.
// A resource's outputs are its inputs as last set, overlaid with what Read
// returned; an Update sends only the properties that changed (a removed
// one as null), as the protocol's "only those listed are updated" says.
//
// A plugin is started like a Pulumi plugin: plinth runs the binary (in a
// process group of its own, tied to plinth's life by internal/plugin/proc)
// and reads the port it listens on, on 127.0.0.1, from the first line of
// its stdout. internal/plugin finds such plugins by their names,
// mu-resource-<name>; internal/registry picks this adapter for them.
//
// Failed calls: an error status the live plugin returned is its answer; a
// Create, Update or Delete that ended any other way (the plugin crashed,
// the connection broke, the call timed out or was cancelled) is marked
// provider.OutcomeUnknown, and the engine leaves it pending. A Read that
// answers NotFound means the resource is gone.
package mu
