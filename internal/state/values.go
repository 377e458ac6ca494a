package state

import "github.com/plinth-iac/plinth/sdk/resource"

// EncodeObject returns the stored JSON of an object of values, in Pulumi's
// conventions (secrets sealed with c, assets, archives and references as
// signature-tagged objects). The state format converters use it to write
// Pulumi deployments, whose values are stored the same way.
func EncodeObject(o resource.Object, c Crypter) ([]byte, error) {
	enc := &valueEncoder{crypter: c}
	if o == nil {
		o = resource.Object{}
	}
	return enc.object(nil, o)
}

// DecodeObject parses the stored JSON of an object of values (see
// EncodeObject); secrets are opened with c. JSON null is a nil object.
func DecodeObject(raw []byte, c Crypter) (resource.Object, error) {
	return decodeObject(raw, c)
}

// DecodeValue parses the stored JSON of one value (see EncodeObject).
func DecodeValue(raw []byte, c Crypter) (resource.Value, error) {
	return decodeValue(raw, c)
}
