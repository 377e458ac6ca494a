package pulumiwire

import (
	"encoding/base64"

	"google.golang.org/protobuf/types/known/structpb"
	"pgregory.net/rapid"
)

// genWireStruct draws wire objects as any peer might send them, special
// forms and a few malformed ones included.
func genWireStruct() *rapid.Generator[*structpb.Struct] {
	return rapid.Custom(func(t *rapid.T) *structpb.Struct {
		return drawWireStruct(t, 3)
	})
}

func drawWireStruct(t *rapid.T, depth int) *structpb.Struct {
	fields := map[string]*structpb.Value{}
	for _, k := range rapid.SliceOfN(genKey(), 0, 4).Draw(t, "keys") {
		fields[k] = drawWire(t, depth-1)
	}
	return &structpb.Struct{Fields: fields}
}

var sentinels = []string{UnknownBool, UnknownNumber, UnknownString, UnknownArray, UnknownAsset, UnknownArchive, UnknownObject}

func drawWire(t *rapid.T, depth int) *structpb.Value {
	kinds := []string{"null", "bool", "number", "string", "sentinel", "asset", "archive", "ref", "bytes", "output", "malformed"}
	if depth > 0 {
		kinds = append(kinds, "list", "struct", "secret", "outputof")
	}
	switch rapid.SampledFrom(kinds).Draw(t, "wirekind") {
	case "bool":
		return structpb.NewBoolValue(rapid.Bool().Draw(t, "b"))
	case "number":
		return structpb.NewNumberValue(rapid.Float64().Draw(t, "n"))
	case "string":
		return structpb.NewStringValue(rapid.String().Draw(t, "s"))
	case "sentinel":
		return structpb.NewStringValue(rapid.SampledFrom(sentinels).Draw(t, "sentinel"))
	case "asset":
		return tagged(AssetSig, map[string]*structpb.Value{"text": structpb.NewStringValue("t"), "hash": structpb.NewStringValue("h")})
	case "archive":
		return drawWireArchive(t)
	case "ref":
		return drawWireRef(t)
	case "bytes":
		raw := rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "raw")
		return tagged(ByteStringSig, map[string]*structpb.Value{"value": structpb.NewStringValue(base64.StdEncoding.EncodeToString(raw))})
	case "output":
		return drawWireOutput(t, nil)
	case "outputof":
		return drawWireOutput(t, drawWire(t, depth-1))
	case "malformed":
		return drawMalformed(t)
	case "list":
		n := rapid.IntRange(0, 3).Draw(t, "len")
		values := make([]*structpb.Value, n)
		for i := range values {
			values[i] = drawWire(t, depth-1)
		}
		return structpb.NewListValue(&structpb.ListValue{Values: values})
	case "struct":
		return structpb.NewStructValue(drawWireStruct(t, depth))
	case "secret":
		return tagged(SecretSig, map[string]*structpb.Value{"value": drawWire(t, depth-1)})
	}
	return structpb.NewNullValue()
}

func drawWireArchive(t *rapid.T) *structpb.Value {
	fields := map[string]*structpb.Value{}
	if rapid.Bool().Draw(t, "haspath") {
		fields["path"] = structpb.NewStringValue(rapid.SampledFrom([]string{"", "p.zip"}).Draw(t, "path"))
	}
	if rapid.Bool().Draw(t, "hasuri") {
		fields["uri"] = structpb.NewStringValue(rapid.SampledFrom([]string{"", "file:///u.tgz"}).Draw(t, "uri"))
	}
	if rapid.Bool().Draw(t, "hasassets") {
		member := tagged(AssetSig, map[string]*structpb.Value{"path": structpb.NewStringValue("f.txt")})
		fields["assets"] = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"f": member}})
	}
	return tagged(ArchiveSig, fields)
}

func drawWireRef(t *rapid.T) *structpb.Value {
	fields := map[string]*structpb.Value{"urn": structpb.NewStringValue("urn:pulumi:s::p::a:b:C::n")}
	switch rapid.IntRange(0, 4).Draw(t, "idform") {
	case 1:
		fields["id"] = structpb.NewStringValue("")
	case 2:
		fields["id"] = structpb.NewStringValue("i-123")
	case 3:
		fields["id"] = structpb.NewStringValue(UnknownString)
	case 4:
		fields["id"] = drawWireOutput(t, structpb.NewStringValue("i-9"))
	}
	if rapid.Bool().Draw(t, "named") {
		fields["name"] = structpb.NewStringValue("n")
		fields["type"] = structpb.NewStringValue("a:b:C")
	}
	if rapid.Bool().Draw(t, "versioned") {
		fields["packageVersion"] = structpb.NewStringValue("2.0.0")
	}
	return tagged(ReferenceSig, fields)
}

// drawWireOutput draws an output value; value nil means an unknown one.
func drawWireOutput(t *rapid.T, value *structpb.Value) *structpb.Value {
	fields := map[string]*structpb.Value{}
	if value != nil && rapid.Bool().Draw(t, "known") {
		fields["value"] = value
	}
	if rapid.Bool().Draw(t, "hassecret") {
		fields["secret"] = structpb.NewBoolValue(rapid.Bool().Draw(t, "secret"))
	}
	if rapid.Bool().Draw(t, "hasdeps") {
		deps := []*structpb.Value{structpb.NewStringValue("urn:pulumi:s::p::a:b:C::dep")}
		fields["dependencies"] = structpb.NewListValue(&structpb.ListValue{Values: deps})
	}
	return tagged(OutputSig, fields)
}

// drawMalformed draws special values that both sides must refuse.
func drawMalformed(t *rapid.T) *structpb.Value {
	switch rapid.IntRange(0, 6).Draw(t, "malformed") {
	case 0:
		return tagged(SecretSig, nil)
	case 1:
		return tagged("not-a-signature", nil)
	case 2:
		return structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{SigKey: structpb.NewNumberValue(1)}})
	case 3:
		return tagged(ReferenceSig, nil)
	case 4:
		return tagged(ReferenceSig, map[string]*structpb.Value{"urn": structpb.NewBoolValue(true)})
	case 5:
		return tagged(AssetSig, map[string]*structpb.Value{"text": structpb.NewNumberValue(3)})
	}
	return tagged(ByteStringSig, map[string]*structpb.Value{"value": structpb.NewStringValue("%%%")})
}
