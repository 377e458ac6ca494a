package pulumiwire

import (
	"fmt"
	"strings"

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

// at is where a value is: the steps from the top, kept in one buffer
// that the codec extends as it descends (a sibling's steps overwrite
// those of the one before, which no one keeps), turned into a
// resource.PropertyPath only for an error. A path slice per value was a
// fifth of the codec's allocations.
type at []step

// step is a key, or an index when index >= 0.
type step struct {
	key   string
	index int
}

// top is the path of a top-level value, with room for a few steps on the
// stack.
func top() at { return make(at, 0, 8) }

func (a at) key(k string) at { return append(a, step{key: k, index: -1}) }

func (a at) index(i int) at { return append(a, step{index: i}) }

// path returns a copy of a as a property path.
func (a at) path() resource.PropertyPath {
	if len(a) == 0 {
		return nil
	}
	out := make(resource.PropertyPath, len(a))
	for i, s := range a {
		if s.index >= 0 {
			out[i] = s.index
		} else {
			// A copy, so that a's storage (escape analysis tells no
			// field from another) stays on the stack.
			out[i] = strings.Clone(s.key)
		}
	}
	return out
}

func fail(path at, format string, args ...any) error {
	return &Error{Path: path.path(), Reason: fmt.Sprintf(format, args...)}
}
