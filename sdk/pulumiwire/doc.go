// Package pulumiwire encodes plinth values for the Pulumi provider protocol
// (pulumirpc) and decodes them back: resource.Object to and from
// google.protobuf.Struct, with the protocol's tagged forms for secrets,
// unknowns, assets, archives, resource references, output values and byte
// strings. It also converts detailed diffs, check failures and property
// paths, the other values that cross the protocol as data.
//
// Options say what the peer understands. A provider that did not accept
// secrets gets their plain values; one that did not accept resource
// references gets each reference's ID (or URN for a component); unknowns can
// be refused where the protocol forbids them (function arguments).
//
// It is public because both sides of the protocol use it: the engine's
// pulumirpc client adapter (internal/provider/pulumirpc) and the SDK's
// pulumirpc server (sdk/provider/pulumiserve). It holds no connection, starts
// no process and knows nothing of the provider lifecycle; those belong to its
// two neighbours. Values themselves are defined in sdk/resource.
package pulumiwire
