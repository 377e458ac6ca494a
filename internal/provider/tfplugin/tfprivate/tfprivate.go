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
// the provider's private bytes to the end. The adapter may also record
// which provider binary wrote the state (Producer, ProducerSize bytes):
// the magic is then "tfp2" and the producer follows the version. A state
// whose producer is the running binary, at the schema version it was
// written with, needs no UpgradeResourceState (see the adapter's
// loadState).
package tfprivate

import (
	"bytes"
	"encoding/binary"
	"errors"
)

var (
	magic         = []byte("tfp1")
	magicProduced = []byte("tfp2")
)

// ProducerSize is the length of a Producer.
const ProducerSize = 16

// Data is the decoded form. HasVersion is false for an empty Private
// (state recorded without one), in which case the current schema version is
// assumed. Producer is nil unless the state was recorded with the
// fingerprint of the provider binary that wrote it.
type Data struct {
	SchemaVersion int64
	HasVersion    bool
	Producer      []byte
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

// EncodeProduced is Encode with the fingerprint of the provider binary
// that wrote the state (ProducerSize bytes; any other length is left out,
// as Encode).
func EncodeProduced(schemaVersion int64, producer, provider []byte) []byte {
	if len(producer) != ProducerSize {
		return Encode(schemaVersion, provider)
	}
	out := make([]byte, 0, len(magicProduced)+binary.MaxVarintLen64+ProducerSize+len(provider))
	out = append(out, magicProduced...)
	out = binary.AppendVarint(out, schemaVersion)
	out = append(out, producer...)
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
	produced := false
	if !ok {
		if rest, ok = bytes.CutPrefix(b, magicProduced); !ok {
			return Data{}, ErrForeign
		}
		produced = true
	}
	v, n := binary.Varint(rest)
	if n <= 0 || v < 0 || len(binary.AppendVarint(nil, v)) != n { // overlong encodings are not ours
		return Data{}, ErrForeign
	}
	rest = rest[n:]
	d := Data{SchemaVersion: v, HasVersion: true}
	if produced {
		if len(rest) < ProducerSize {
			return Data{}, ErrForeign
		}
		d.Producer = append([]byte(nil), rest[:ProducerSize]...)
		rest = rest[ProducerSize:]
	}
	if len(rest) > 0 {
		d.Provider = append([]byte(nil), rest...)
	}
	return d, nil
}
