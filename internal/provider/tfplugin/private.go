package tfplugin

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// The engine stores one opaque byte string per resource (Private). The
// adapter keeps two things in it: the schema version the state was written
// with (for UpgradeResourceState) and the provider's own private bytes.
//
// Encoding: the magic "tfp1", the schema version as a signed varint, then
// the provider's private bytes to the end.
var privateMagic = []byte("tfp1")

// private is the decoded form. hasVersion is false for an empty Private
// (state recorded without one), in which case the current schema version is
// assumed.
type private struct {
	schemaVersion int64
	hasVersion    bool
	tf            []byte
}

func encodePrivate(schemaVersion int64, tf []byte) []byte {
	out := make([]byte, 0, len(privateMagic)+binary.MaxVarintLen64+len(tf))
	out = append(out, privateMagic...)
	out = binary.AppendVarint(out, schemaVersion)
	return append(out, tf...)
}

// errPrivate is returned for stored private data this adapter did not write.
var errPrivate = errors.New("the stored private data was not written by plinth's Terraform adapter")

func decodePrivate(b []byte) (private, error) {
	if len(b) == 0 {
		return private{}, nil
	}
	rest, ok := bytes.CutPrefix(b, privateMagic)
	if !ok {
		return private{}, errPrivate
	}
	v, n := binary.Varint(rest)
	if n <= 0 || v < 0 || len(binary.AppendVarint(nil, v)) != n { // overlong encodings are not ours
		return private{}, errPrivate
	}
	var tf []byte
	if len(rest) > n {
		tf = append([]byte(nil), rest[n:]...)
	}
	return private{schemaVersion: v, hasVersion: true, tf: tf}, nil
}
