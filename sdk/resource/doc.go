// Package resource holds the values plinth exchanges with providers and
// records in state: the value model (null, bool, number, string, array,
// object, asset, archive, resource reference, unknown, secret), URNs,
// property paths and detailed diffs.
//
// It is public because the provider SDK (sdk/provider) and the wire codecs
// that serve SDK providers need the very same values as the engine; keeping
// one value model avoids a converter at every boundary.
//
// It deliberately knows nothing about wire formats or storage: the state
// package and the protocol adapters own their encodings. It never performs
// I/O except to hash path assets and archives on request.
package resource
