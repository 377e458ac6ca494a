package agent

import (
	"encoding/json"
	"io"
	"time"

	"github.com/plinth-iac/plinth/internal/secrets"
)

// A connection carries one request and its response, each a JSON object.

// The operations.
const (
	opKey    = "key"    // the key of Salt, KDF and Passphrase, if held
	opKeep   = "keep"   // hold Key for Salt, KDF and Passphrase for TTL after each use
	opForget = "forget" // drop every key
)

// request is what a client asks. Passphrase is bytes, not a JSON string,
// so that no passphrase is changed on the way (JSON would replace
// invalid UTF-8), which could make two passphrases one.
type request struct {
	Op         string            `json:"op"`
	Salt       []byte            `json:"salt,omitempty"`
	KDF        secrets.KDFParams `json:"kdf"`
	Passphrase []byte            `json:"passphrase,omitempty"`
	Key        []byte            `json:"key,omitempty"`
	TTL        time.Duration     `json:"ttl,omitempty"`
}

// response is the agent's answer: Key on a hit, Forgot and PID for
// forget, Error for a request it refused.
type response struct {
	Key    []byte `json:"key,omitempty"`
	Forgot int    `json:"forgot,omitempty"`
	PID    int    `json:"pid,omitempty"`
	Error  string `json:"error,omitempty"`
}

// maxMessage bounds what either side reads.
const maxMessage = 64 << 10

func readMessage(r io.Reader, v any) error {
	return json.NewDecoder(io.LimitReader(r, maxMessage)).Decode(v)
}

func writeMessage(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// wipe clears the secrets a request carried.
func (r *request) wipe() {
	clear(r.Passphrase)
	clear(r.Key)
}
