package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
)

// A stored snapshot carries a checksum so that damage anywhere in it (a
// flipped byte, a truncation, an edit) is detected rather than read as a
// different state. The snapshot starts
//
//	{"version":2,"checksum":"<64 hex digits>",...
//
// and the digits are the SHA-256 of the whole stored form with those 64
// digits written as '0'. Keeping the checksum inside the JSON leaves the
// file one readable JSON document.

// checksumPlaceholder is what the checksum's digits are while hashing.
var checksumPlaceholder = string(bytes.Repeat([]byte{'0'}, sha256.Size*2))

// checksumPrefix finds the checksum at the start of a snapshot.
var checksumPrefix = regexp.MustCompile(`^\{"version":[0-9]+,"checksum":"([0-9a-f]{64})",`)

// errNoChecksum is returned by verifyChecksum for data without a
// checksum at the start, such as a version 1 snapshot.
var errNoChecksum = errors.New("it has no checksum")

// ChecksumError reports a snapshot whose bytes do not match its checksum.
type ChecksumError struct{ Want, Got string }

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("its checksum does not match its contents (recorded %.12s…, computed %.12s…): "+
		"it was damaged or edited after plinth wrote it", e.Want, e.Got)
}

// sealChecksum writes the checksum of data, which holds the placeholder.
func sealChecksum(data []byte) ([]byte, error) {
	m := checksumPrefix.FindSubmatchIndex(data)
	if m == nil || string(data[m[2]:m[3]]) != checksumPlaceholder {
		return nil, errors.New("encoding state: the snapshot does not start with its checksum") // a broken invariant of EncodeSnapshot
	}
	sum := sha256.Sum256(data)
	hex.Encode(data[m[2]:m[3]], sum[:])
	return data, nil
}

// verifyChecksum checks the checksum at the start of data: nil if it
// matches, errNoChecksum if there is none, a *ChecksumError otherwise.
func verifyChecksum(data []byte) error {
	m := checksumPrefix.FindSubmatchIndex(data)
	if m == nil {
		return errNoChecksum
	}
	want := string(data[m[2]:m[3]])
	// The digits are hashed as the placeholder in place: a copy of data
	// with them zeroed was a second copy of the whole state file at the
	// peak of a large stack's load.
	h := sha256.New()
	h.Write(data[:m[2]])
	h.Write([]byte(checksumPlaceholder))
	h.Write(data[m[3]:])
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return &ChecksumError{Want: want, Got: got}
	}
	return nil
}
