package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Version identifies the state of a stack as stored: the sequence number
// of the last journal entry it covers and the checksum of the stored
// snapshot it was read from. Any command that records something changes
// the sequence number; anything that rewrites the snapshot (an import, an
// edit, a restore) changes its checksum. It is cheap: nothing but the
// snapshot that is read anyway is hashed. A saved plan records the version
// it was made against, and `up --plan` refuses a stack whose version
// differs.
type Version struct {
	Seq      uint64 `json:"seq"`
	Checksum string `json:"checksum"`
}

// String renders v for messages: "sequence 12, snapshot 3f2a9c0b1d2e".
func (v Version) String() string {
	sum := v.Checksum
	if len(sum) > 12 {
		sum = sum[:12]
	}
	if sum == "" {
		sum = "none"
	}
	return fmt.Sprintf("sequence %d, snapshot %s", v.Seq, sum)
}

// storedChecksum is the checksum a stored snapshot carries, or the
// SHA-256 of data when it carries none (a version 1 snapshot); "" for
// no snapshot at all.
func storedChecksum(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	if m := checksumPrefix.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// LoadVersion is Load that also returns the version of the state it read.
// A journal left by an interrupted run is replayed in memory, and counts
// in the sequence number; the next Open saves it as a new snapshot, which
// changes the checksum.
func LoadVersion(ctx context.Context, b Backend, stack string, opts OpenOptions) (*Snapshot, Version, error) {
	if err := ValidateStackName(stack); err != nil {
		return nil, Version{}, err
	}
	st, err := load(ctx, b, stack, opts)
	if err != nil {
		return nil, Version{}, err
	}
	return st.snapshot, Version{Seq: st.seq, Checksum: st.checksum}, nil
}

// Version returns the version of the state when the session opened,
// after any recovery: what the operation starts from.
func (s *Session) Version() Version { return s.version }
