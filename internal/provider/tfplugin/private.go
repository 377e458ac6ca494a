package tfplugin

import "github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"

// The engine stores one opaque byte string per resource (Private). The
// adapter keeps two things in it, in the layout of package tfprivate (which
// the Terraform state converter shares): the schema version the state was
// written with (for UpgradeResourceState) and the provider's own private
// bytes.

// private is the decoded form. hasVersion is false for an empty Private
// (state recorded without one), in which case the current schema version is
// assumed.
type private struct {
	schemaVersion int64
	hasVersion    bool
	tf            []byte
}

func encodePrivate(schemaVersion int64, tf []byte) []byte {
	return tfprivate.Encode(schemaVersion, tf)
}

func decodePrivate(b []byte) (private, error) {
	d, err := tfprivate.Decode(b)
	if err != nil {
		return private{}, err
	}
	return private{schemaVersion: d.SchemaVersion, hasVersion: d.HasVersion, tf: d.Provider}, nil
}
