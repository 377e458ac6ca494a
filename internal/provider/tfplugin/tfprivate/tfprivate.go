// Package tfprivate is the layout of the Private bytes plinth records for a
// resource managed by a Terraform provider: the schema version its state
// was written with (so that UpgradeResourceState runs on the next load)
// and the provider's own private bytes.
//
// The Terraform adapter (internal/provider/tfplugin) writes and reads it;
// the Terraform state converter (internal/state/tfstate) writes it when it
// adopts a terraform.tfstate and reads it when it exports one. It is kept
// apart so that the converter need not import the adapter.
//
// Encoding: the magic "tfp1", the schema version as a signed varint, then
// the provider's private bytes to the end.
package tfprivate

import (
	"bytes"
	"encoding/binary"
	"errors"
)

var magic = []byte("tfp1")

// Data is the decoded form. HasVersion is false for an empty Private
// (state recorded without one), in which case the current schema version is
// assumed.
type Data struct {
	SchemaVersion int64
	HasVersion    bool
	Provider      []byte
}

// Encode returns the Private bytes for a schema version and the provider's
// private bytes.
func Encode(schemaVersion int64, provider []byte) []byte {
	out := make([]byte, 0, len(magic)+binary.MaxVarintLen64+len(provider))
	out = append(out, magic...)
	out = binary.AppendVarint(out, schemaVersion)
	return append(out, provider...)
}

// ErrForeign is returned for Private bytes this layout did not produce.
var ErrForeign = errors.New("the stored private data was not written by plinth's Terraform adapter")

// Decode reads Private bytes; empty bytes decode to the zero Data.
func Decode(b []byte) (Data, error) {
	if len(b) == 0 {
		return Data{}, nil
	}
	rest, ok := bytes.CutPrefix(b, magic)
	if !ok {
		return Data{}, ErrForeign
	}
	v, n := binary.Varint(rest)
	if n <= 0 || v < 0 || len(binary.AppendVarint(nil, v)) != n { // overlong encodings are not ours
		return Data{}, ErrForeign
	}
	var tf []byte
	if len(rest) > n {
		tf = append([]byte(nil), rest[n:]...)
	}
	return Data{SchemaVersion: v, HasVersion: true, Provider: tf}, nil
}
