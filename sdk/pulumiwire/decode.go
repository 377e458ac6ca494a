package pulumiwire

import (
	"encoding/base64"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// DecodeObject decodes a Struct into an object. A nil Struct decodes as a
// nil object.
func DecodeObject(s *structpb.Struct, opts Options) (resource.Object, error) {
	if s == nil {
		return nil, nil
	}
	return decodeFields(top(), s.GetFields(), opts)
}

// DecodeValue decodes one value.
func DecodeValue(v *structpb.Value, opts Options) (resource.Value, error) {
	return decodeValue(top(), v, opts)
}

func decodeFields(path at, fields map[string]*structpb.Value, opts Options) (resource.Object, error) {
	o := make(resource.Object, len(fields))
	for k, f := range fields {
		v, err := decodeValue(path.key(k), f, opts)
		if err != nil {
			return nil, err
		}
		o[k] = v
	}
	return o, nil
}

func decodeValue(path at, v *structpb.Value, opts Options) (resource.Value, error) {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NullValue:
		return resource.Null(), nil
	case *structpb.Value_BoolValue:
		return resource.NewBool(k.BoolValue), nil
	case *structpb.Value_NumberValue:
		return resource.NewNumber(k.NumberValue), nil
	case *structpb.Value_StringValue:
		if IsUnknownSentinel(k.StringValue) {
			return decodeUnknown(path, opts)
		}
		return resource.NewString(k.StringValue), nil
	case *structpb.Value_ListValue:
		return decodeArray(path, k.ListValue.GetValues(), opts)
	case *structpb.Value_StructValue:
		return decodeStruct(path, k.StructValue.GetFields(), opts)
	}
	return resource.Value{}, fail(path, "the value is empty (a protobuf Value with no kind set)")
}

func decodeArray(path at, values []*structpb.Value, opts Options) (resource.Value, error) {
	elems := make([]resource.Value, len(values))
	for i, e := range values {
		v, err := decodeValue(path.index(i), e, opts)
		if err != nil {
			return resource.Value{}, err
		}
		elems[i] = v
	}
	return resource.NewArray(elems...), nil
}

func decodeUnknown(path at, opts Options) (resource.Value, error) {
	if opts.RejectUnknowns {
		return resource.Value{}, fail(path, "the value is unknown, but this call needs every value known")
	}
	return resource.Unknown(), nil
}

// decodeStruct decodes a plain object or, if it carries a signature, the
// special value it stands for.
func decodeStruct(path at, fields map[string]*structpb.Value, opts Options) (resource.Value, error) {
	tag, ok := fields[SigKey]
	if !ok {
		o, err := decodeFields(path, fields, opts)
		return resource.NewObject(o), err
	}
	sig, ok := tag.GetKind().(*structpb.Value_StringValue)
	if !ok {
		return resource.Value{}, fail(path, "malformed special value: its signature is not a string")
	}
	switch sig.StringValue {
	case SecretSig:
		return decodeSecret(path, fields, opts)
	case AssetSig:
		return decodeAsset(path, fields)
	case ArchiveSig:
		return decodeArchive(path, fields)
	case ReferenceSig:
		return decodeReference(path, fields, opts)
	case OutputSig:
		return decodeOutput(path, fields, opts)
	case ByteStringSig:
		return decodeByteString(path, fields)
	}
	return resource.Value{}, fail(path, "unrecognized signature %q", sig.StringValue)
}

func decodeSecret(path at, fields map[string]*structpb.Value, opts Options) (resource.Value, error) {
	inner, ok := fields["value"]
	if !ok {
		return resource.Value{}, fail(path, "malformed secret: it has no value")
	}
	v, err := decodeValue(path, inner, opts)
	if err != nil || !opts.Secrets {
		return v, err
	}
	return resource.MakeSecret(v), nil
}

func decodeByteString(path at, fields map[string]*structpb.Value) (resource.Value, error) {
	var enc string
	if err := getString(path, fields, "value", &enc); err != nil {
		return resource.Value{}, err
	}
	if _, ok := fields["value"]; !ok {
		return resource.Value{}, fail(path, "malformed byte string: it has no value")
	}
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return resource.Value{}, fail(path, "malformed byte string: the value is not base64: %v", err)
	}
	return resource.NewString(string(b)), nil
}

// decodeOutput decodes an output value into what plinth's values can say of
// it: its value, or unknown, marked secret if it is. Its dependencies are
// checked but not kept (see OutputDependencies).
func decodeOutput(path at, fields map[string]*structpb.Value, opts Options) (resource.Value, error) {
	secret := false
	if s, ok := fields["secret"]; ok {
		b, ok := s.GetKind().(*structpb.Value_BoolValue)
		if !ok {
			return resource.Value{}, fail(path, "malformed output value: \"secret\" is not a bool")
		}
		secret = b.BoolValue
	}
	if _, err := outputDeps(path, fields); err != nil {
		return resource.Value{}, err
	}
	var v resource.Value
	var err error
	if inner, known := fields["value"]; known {
		v, err = decodeValue(path, inner, opts)
	} else {
		v, err = decodeUnknown(path, opts)
	}
	if err != nil || !secret || !opts.Secrets {
		return v, err
	}
	return resource.MakeSecret(v), nil
}

func outputDeps(path at, fields map[string]*structpb.Value) ([]resource.URN, error) {
	d, ok := fields["dependencies"]
	if !ok {
		return nil, nil
	}
	list, ok := d.GetKind().(*structpb.Value_ListValue)
	if !ok {
		return nil, fail(path, "malformed output value: \"dependencies\" is not an array")
	}
	urns := make([]resource.URN, 0, len(list.ListValue.GetValues()))
	for _, e := range list.ListValue.GetValues() {
		s, ok := e.GetKind().(*structpb.Value_StringValue)
		if !ok {
			return nil, fail(path, "malformed output value: a dependency is not a string")
		}
		urns = append(urns, resource.URN(s.StringValue))
	}
	return urns, nil
}
