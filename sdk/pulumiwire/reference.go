package pulumiwire

import (
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// decodeReference decodes a resource reference; without opts.Resources it
// gives what a provider that does not accept references would have been
// sent: the ID (unknown if empty), or the URN when there is no ID.
func decodeReference(path at, fields map[string]*structpb.Value, opts Options) (resource.Value, error) {
	var urn, version string
	if err := getString(path, fields, "urn", &urn); err != nil {
		return resource.Value{}, err
	}
	if _, ok := fields["urn"]; !ok {
		return resource.Value{}, fail(path, "malformed resource reference: it has no urn")
	}
	if err := getString(path, fields, "packageVersion", &version); err != nil {
		return resource.Value{}, err
	}
	for _, key := range []string{"name", "type"} {
		var ignored string
		if err := getString(path, fields, key, &ignored); err != nil {
			return resource.Value{}, err
		}
	}
	id, err := decodeReferenceID(path, fields, opts)
	if err != nil {
		return resource.Value{}, err
	}
	if !opts.Resources {
		if id == nil {
			return resource.NewString(urn), nil
		}
		if id.IsUnknown() {
			return decodeUnknown(path, opts)
		}
		return *id, nil
	}
	return resource.NewReference(resource.Reference{URN: resource.URN(urn), ID: id, PackageVersion: version}), nil
}

// decodeReferenceID reads the optional ID: a string (empty meaning
// unknown), an unknown sentinel, or an output value holding either. It is
// decoded with the caller's options, so a secret ID is refused where
// secrets are kept, as Pulumi peers do.
func decodeReferenceID(path at, fields map[string]*structpb.Value, opts Options) (*resource.Value, error) {
	raw, ok := fields["id"]
	if !ok {
		return nil, nil
	}
	v, err := decodeValue(path, raw, opts)
	if err != nil {
		return nil, err
	}
	switch {
	case v.IsUnknown() || (v.Kind() == resource.StringKind && v.Str() == ""):
		u := resource.Unknown()
		return &u, nil
	case v.Kind() == resource.StringKind:
		return &v, nil
	}
	return nil, fail(path, "malformed resource reference: the id is not a string")
}
