// Package pulumiserve serves an SDK provider (sdk/provider.Provider) as a
// Pulumi-protocol plugin, so that plinth, the pulumi CLI or any other
// Pulumi engine can drive it: the plugin prints its gRPC port on its first
// line of output, takes the engine's address as its last argument, answers
// every lifecycle call of the ResourceProvider service, derives a Pulumi
// package schema from the SDK's schema, and shuts down gracefully on
// SIGINT or SIGTERM (cancelling work in flight first).
//
// A provider's main package is one line:
//
//	func main() { pulumiserve.Main(myprovider.New()) }
//
// Values cross the wire through sdk/pulumiwire, downgraded for an engine
// that did not accept secrets or resource references. Component resources
// (Construct, Call) and parameterization are not served. The package's
// neighbours are sdk/provider (what is served) and sdk/pulumiwire (how
// values are written); plinth's own client is internal/provider/pulumirpc.
package pulumiserve
