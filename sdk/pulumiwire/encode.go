package pulumiwire

import (
	"encoding/base64"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// EncodeObject encodes an object as a Struct. A nil object encodes as nil,
// so "no value" stays distinguishable from "empty object" on the wire.
func EncodeObject(o resource.Object, opts Options) (*structpb.Struct, error) {
	if o == nil {
		return nil, nil
	}
	return encodeFields(top(), o, opts)
}

// EncodeValue encodes one value.
func EncodeValue(v resource.Value, opts Options) (*structpb.Value, error) {
	return encodeValue(top(), v, opts)
}

func encodeFields(path at, o resource.Object, opts Options) (*structpb.Struct, error) {
	fields := make(map[string]*structpb.Value, len(o))
	for k, v := range o {
		e, err := encodeValue(path.key(k), v, opts)
		if err != nil {
			return nil, err
		}
		fields[k] = e
	}
	return &structpb.Struct{Fields: fields}, nil
}

func encodeValue(path at, v resource.Value, opts Options) (*structpb.Value, error) {
	switch v.Kind() {
	case resource.NullKind:
		return structpb.NewNullValue(), nil
	case resource.BoolKind:
		return structpb.NewBoolValue(v.Bool()), nil
	case resource.NumberKind:
		return structpb.NewNumberValue(v.Number()), nil
	case resource.StringKind:
		return encodeString(path, v.Str(), opts)
	case resource.ArrayKind:
		return encodeArray(path, v.Array(), opts)
	case resource.ObjectKind:
		s, err := encodeFields(path, v.Object(), opts)
		if err != nil {
			return nil, err
		}
		return structpb.NewStructValue(s), nil
	case resource.AssetKind:
		return encodeAsset(path, v.Asset())
	case resource.ArchiveKind:
		return encodeArchive(path, v.Archive())
	case resource.ReferenceKind:
		return encodeReference(path, v.Reference(), opts)
	case resource.UnknownKind:
		return encodeUnknown(path, opts)
	case resource.SecretKind:
		return encodeSecret(path, v.SecretElement(), opts)
	}
	return nil, fail(path, "cannot encode a value of kind %s", v.Kind())
}

func encodeString(path at, s string, opts Options) (*structpb.Value, error) {
	if utf8.ValidString(s) {
		return structpb.NewStringValue(s), nil
	}
	if !opts.ByteStrings {
		return nil, fail(path, "the string is not valid UTF-8 and the provider does not accept byte strings")
	}
	return tagged(ByteStringSig, map[string]*structpb.Value{
		"value": structpb.NewStringValue(base64.StdEncoding.EncodeToString([]byte(s))),
	}), nil
}

func encodeArray(path at, elems []resource.Value, opts Options) (*structpb.Value, error) {
	values := make([]*structpb.Value, len(elems))
	for i, e := range elems {
		w, err := encodeValue(path.index(i), e, opts)
		if err != nil {
			return nil, err
		}
		values[i] = w
	}
	return structpb.NewListValue(&structpb.ListValue{Values: values}), nil
}

func encodeUnknown(path at, opts Options) (*structpb.Value, error) {
	if opts.RejectUnknowns {
		return nil, fail(path, "the value is unknown, but this call needs every value known")
	}
	if opts.Outputs {
		return tagged(OutputSig, nil), nil
	}
	return structpb.NewStringValue(UnknownString), nil
}

func encodeSecret(path at, elem resource.Value, opts Options) (*structpb.Value, error) {
	if !opts.Secrets {
		return encodeValue(path, elem, opts)
	}
	inner, err := encodeValue(path, elem, opts)
	if err != nil {
		return nil, err
	}
	if opts.Outputs {
		return tagged(OutputSig, map[string]*structpb.Value{
			"secret": structpb.NewBoolValue(true),
			"value":  inner,
		}), nil
	}
	return tagged(SecretSig, map[string]*structpb.Value{"value": inner}), nil
}

// encodeReference writes a reference, or, for a peer that does not accept
// references, what the guide says to treat it as: its ID if it has one
// (unknown when empty or unknown), else its URN.
func encodeReference(path at, r resource.Reference, opts Options) (*structpb.Value, error) {
	if !opts.Resources {
		if r.ID == nil {
			return structpb.NewStringValue(string(r.URN)), nil
		}
		if r.ID.IsUnknown() || (r.ID.Kind() == resource.StringKind && r.ID.Str() == "") {
			return encodeUnknown(path, opts)
		}
		return encodeValue(path, *r.ID, opts)
	}
	fields := map[string]*structpb.Value{"urn": structpb.NewStringValue(string(r.URN))}
	if r.ID != nil {
		id, err := referenceID(path, *r.ID)
		if err != nil {
			return nil, err
		}
		fields["id"] = structpb.NewStringValue(id)
	}
	if r.PackageVersion != "" {
		fields["packageVersion"] = structpb.NewStringValue(r.PackageVersion)
	}
	return tagged(ReferenceSig, fields), nil
}

// referenceID gives the wire form of a reference's ID: the empty string
// stands for an unknown ID.
func referenceID(path at, id resource.Value) (string, error) {
	switch id.Kind() {
	case resource.StringKind:
		return id.Str(), nil
	case resource.UnknownKind:
		return "", nil
	}
	return "", fail(path, "a resource reference's ID must be a string or unknown, not a %s", id.Kind())
}

// tagged builds a special object: the signature plus fields.
func tagged(sig string, fields map[string]*structpb.Value) *structpb.Value {
	if fields == nil {
		fields = map[string]*structpb.Value{}
	}
	fields[SigKey] = structpb.NewStringValue(sig)
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}
