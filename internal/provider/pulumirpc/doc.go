// Package pulumirpc drives Pulumi-protocol resource provider plugins: it
// launches a pulumi-resource-<name> binary as the Pulumi engine does (the
// engine's address as the last argument, the gRPC port read from the
// plugin's first line of output), serves the engine services a plugin calls
// back into (logging, the root resource), negotiates features (Handshake,
// then Configure's acceptSecrets, acceptResources, supportsPreview) and
// adapts every call of the engine-facing provider.Provider interface to the
// ResourceProvider gRPC service.
//
// The pulumirpc wire types stay inside this package; values cross through
// sdk/pulumiwire, and gRPC statuses become errors that name the provider,
// the call and the resource, with the plugin's last stderr lines when it
// crashed.
//
// It does not find plugins (internal/plugin does, and internal/registry
// calls Launch for the Pulumi-protocol ones it picks) and knows nothing of the lifecycle beyond one
// call at a time: the engine decides what to call. Component resources
// (Construct, Call) and parameterized providers are not supported.
package pulumirpc
