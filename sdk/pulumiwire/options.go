package pulumiwire

import (
	"fmt"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Options say what the other side of the wire understands. The zero value
// is the most conservative peer: secrets are sent as their plain values,
// references as IDs or URNs, and byte strings are refused.
type Options struct {
	// Secrets keeps secrets as secrets. Without it a secret is replaced by
	// its value, as the protocol says for a provider that did not set
	// acceptSecrets.
	Secrets bool
	// Resources keeps resource references. Without it a reference becomes
	// its resource's ID (unknown if the ID is not known yet), or its URN if
	// it has no ID.
	Resources bool
	// Outputs encodes secrets and unknowns as output values, for a peer that
	// set acceptOutputs. Decoding always understands output values.
	Outputs bool
	// ByteStrings allows strings that are not valid UTF-8, sent with the
	// byte string signature. Without it such a string is an error: a
	// protobuf string cannot carry it.
	ByteStrings bool
	// RejectUnknowns makes any unknown value an error, for values that must
	// be fully known (function arguments and results, applied outputs).
	RejectUnknowns bool
}

// Full is the options for a peer that understands everything: secrets,
// references and byte strings kept, unknowns allowed.
func Full() Options {
	return Options{Secrets: true, Resources: true, ByteStrings: true}
}

// Error is a value that could not be encoded or decoded, with the path of
// the property that holds it.
type Error struct {
	Path   resource.PropertyPath
	Reason string
}

func (e *Error) Error() string {
	if len(e.Path) == 0 {
		return e.Reason
	}
	return fmt.Sprintf("property %s: %s", FormatPath(e.Path), e.Reason)
}

// child returns path extended by one element without aliasing path's
// backing array, so sibling paths never overwrite each other.
func child(path resource.PropertyPath, elem any) resource.PropertyPath {
	return append(path[:len(path):len(path)], elem)
}

func fail(path resource.PropertyPath, format string, args ...any) error {
	return &Error{Path: path, Reason: fmt.Sprintf(format, args...)}
}
