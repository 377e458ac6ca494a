package tfplugin

import (
	"crypto/sha256"
	"strconv"

	"github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"
)

// The engine stores one opaque byte string per resource (Private). The
// adapter keeps three things in it, in the layout of package tfprivate
// (which the Terraform state converter shares): the schema version the
// state was written with (for UpgradeResourceState), the provider's own
// private bytes, and, for a state the adapter knows to be in the form the
// provider's own UpgradeResourceState would return, a fingerprint of the
// binary that wrote it (the producer).
//
// Why the producer lets loadState skip UpgradeResourceState: at an
// unchanged schema version neither SDK runs provider code.
// terraform-plugin-framework decodes the stored JSON with the current
// schema's type (ignoring attributes the schema lacks) and returns it;
// terraform-plugin-sdk v2 also drops unknown attributes, coerces the value
// to the schema's type and fills null nested blocks with empty
// collections (its legacy normalisation). A state that the same binary
// wrote through a provider that does not use the legacy type system is
// already exactly that form, so the adapter decodes it itself. Anything
// else is upgraded by the provider as Terraform does on every read: a
// state from another binary (a new build may add or drop attributes
// without changing the schema version), at another schema version, from a
// legacy SDK provider (its plans say so), adopted from a terraform.tfstate,
// imported, or recorded before producers were.

// private is the decoded form. hasVersion is false for an empty Private
// (state recorded without one), in which case the current schema version is
// assumed. current is set by loadState: the stored state is in the form
// this binary's upgrade would return, and was decoded without asking it.
type private struct {
	schemaVersion int64
	hasVersion    bool
	producer      []byte
	tf            []byte
	current       bool
}

func encodePrivate(schemaVersion int64, tf []byte) []byte {
	return tfprivate.Encode(schemaVersion, tf)
}

// privateFor is the Private of a state this provider returned for t:
// marked with the producer if current (the state needs no upgrade by this
// binary at this schema version).
func (p *Provider) privateFor(t target, tf []byte, current bool) []byte {
	if !current || p.producer == nil {
		return encodePrivate(t.s.version, tf)
	}
	return tfprivate.EncodeProduced(t.s.version, p.producer, tf)
}

func decodePrivate(b []byte) (private, error) {
	d, err := tfprivate.Decode(b)
	if err != nil {
		return private{}, err
	}
	return private{schemaVersion: d.SchemaVersion, hasVersion: d.HasVersion, producer: d.Producer, tf: d.Provider}, nil
}

// producerOf fingerprints a binary's checksum and the protocol it speaks;
// nil without a checksum (nothing is then marked, and every state is
// upgraded).
func producerOf(sum string, protocol int) []byte {
	if sum == "" {
		return nil
	}
	h := sha256.Sum256([]byte("tfplugin producer " + sum + " p" + strconv.Itoa(protocol)))
	return h[:tfprivate.ProducerSize]
}

// upToDate reports whether a stored state needs no UpgradeResourceState:
// this binary wrote it, at the schema version t has now.
func (p *Provider) upToDate(t target, pd private) bool {
	return p.producer != nil && pd.hasVersion && pd.schemaVersion == t.s.version &&
		string(pd.producer) == string(p.producer)
}
