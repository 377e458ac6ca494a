package pulumiwire

import (
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func encodeAsset(path at, a *resource.Asset) (*structpb.Value, error) {
	if a == nil {
		return nil, fail(path, "the asset is missing")
	}
	fields := map[string]*structpb.Value{}
	putString(fields, "hash", a.Hash)
	putString(fields, "text", a.Text)
	putString(fields, "path", a.Path)
	putString(fields, "uri", a.URI)
	return tagged(AssetSig, fields), nil
}

func encodeArchive(path at, a *resource.Archive) (*structpb.Value, error) {
	if a == nil {
		return nil, fail(path, "the archive is missing")
	}
	fields := map[string]*structpb.Value{}
	putString(fields, "hash", a.Hash)
	putString(fields, "path", a.Path)
	putString(fields, "uri", a.URI)
	if a.Assets != nil {
		members := make(map[string]*structpb.Value, len(a.Assets))
		for name, m := range a.Assets {
			e, err := encodeMember(path.key(name), m)
			if err != nil {
				return nil, err
			}
			members[name] = e
		}
		fields["assets"] = structpb.NewStructValue(&structpb.Struct{Fields: members})
	}
	return tagged(ArchiveSig, fields), nil
}

func encodeMember(path at, m resource.Value) (*structpb.Value, error) {
	switch m.Kind() {
	case resource.AssetKind:
		return encodeAsset(path, m.Asset())
	case resource.ArchiveKind:
		return encodeArchive(path, m.Archive())
	}
	return nil, fail(path, "an archive member must be an asset or an archive, not a %s", m.Kind())
}

func putString(fields map[string]*structpb.Value, key, s string) {
	if s != "" {
		fields[key] = structpb.NewStringValue(s)
	}
}

func decodeAsset(path at, fields map[string]*structpb.Value) (resource.Value, error) {
	var a resource.Asset
	for key, dst := range map[string]*string{"hash": &a.Hash, "text": &a.Text, "path": &a.Path, "uri": &a.URI} {
		if err := getString(path, fields, key, dst); err != nil {
			return resource.Value{}, err
		}
	}
	return resource.NewAsset(&a), nil
}

// decodeArchive reads an archive. A path wins over a URI, and a URI over
// members, as Pulumi peers read them.
func decodeArchive(path at, fields map[string]*structpb.Value) (resource.Value, error) {
	var a resource.Archive
	for key, dst := range map[string]*string{"hash": &a.Hash, "path": &a.Path, "uri": &a.URI} {
		if err := getString(path, fields, key, dst); err != nil {
			return resource.Value{}, err
		}
	}
	switch {
	case a.Path != "":
		a.URI = ""
	case a.URI != "":
	default:
		members, err := decodeMembers(path, fields["assets"])
		if err != nil {
			return resource.Value{}, err
		}
		a.Assets = members
	}
	return resource.NewArchive(&a), nil
}

// decodeMembers reads an archive's members. An archive with neither path,
// URI nor members is an empty archive, not a missing one.
func decodeMembers(path at, v *structpb.Value) (map[string]resource.Value, error) {
	members := map[string]resource.Value{}
	if v == nil {
		return members, nil
	}
	s, ok := v.GetKind().(*structpb.Value_StructValue)
	if !ok {
		return nil, fail(path, "malformed archive: its assets are not an object")
	}
	for name, m := range s.StructValue.GetFields() {
		p := path.key(name)
		ms, ok := m.GetKind().(*structpb.Value_StructValue)
		if !ok {
			return nil, fail(p, "malformed archive: a member is not an asset or archive")
		}
		f := ms.StructValue.GetFields()
		var err error
		switch sigOf(f) {
		case AssetSig:
			members[name], err = decodeAsset(p, f)
		case ArchiveSig:
			members[name], err = decodeArchive(p, f)
		default:
			err = fail(p, "malformed archive: a member is not an asset or archive")
		}
		if err != nil {
			return nil, err
		}
	}
	return members, nil
}

// getString reads an optional string field into dst.
func getString(path at, fields map[string]*structpb.Value, key string, dst *string) error {
	v, ok := fields[key]
	if !ok {
		return nil
	}
	s, ok := v.GetKind().(*structpb.Value_StringValue)
	if !ok {
		return fail(path, "malformed special value: %q is not a string", key)
	}
	*dst = s.StringValue
	return nil
}

func sigOf(fields map[string]*structpb.Value) string {
	if s, ok := fields[SigKey].GetKind().(*structpb.Value_StringValue); ok {
		return s.StringValue
	}
	return ""
}
