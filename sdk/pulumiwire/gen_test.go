package pulumiwire

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// genObject draws objects of every kind of value, nested a few levels.
func genObject(bytes bool) *rapid.Generator[resource.Object] {
	return rapid.Custom(func(t *rapid.T) resource.Object {
		return drawObject(t, 3, bytes)
	})
}

func drawObject(t *rapid.T, depth int, bytes bool) resource.Object {
	keys := rapid.SliceOfN(genKey(), 0, 4).Draw(t, "keys")
	o := make(resource.Object, len(keys))
	for _, k := range keys {
		o[k] = drawValue(t, depth-1, bytes)
	}
	return o
}

func genKey() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"a", "b", "name", "x.y", "", "with space", "q\"uote"}),
		rapid.StringMatching(`[a-zA-Z_][a-zA-Z0-9_]{0,6}`),
		rapid.String(),
	).Filter(func(k string) bool { return k != SigKey })
}

func drawString(t *rapid.T, bytes bool) string {
	if bytes && rapid.Bool().Draw(t, "raw") {
		return string(rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "bytes"))
	}
	return rapid.String().Draw(t, "string")
}

func drawValue(t *rapid.T, depth int, bytes bool) resource.Value {
	kinds := []string{"null", "bool", "number", "string", "asset", "archive", "ref", "unknown"}
	if depth > 0 {
		kinds = append(kinds, "array", "object", "secret")
	}
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "bool":
		return resource.NewBool(rapid.Bool().Draw(t, "bool"))
	case "number":
		return resource.NewNumber(rapid.Float64().Draw(t, "number"))
	case "string":
		return resource.NewString(drawString(t, bytes))
	case "asset":
		return resource.NewAsset(drawAsset(t))
	case "archive":
		return resource.NewArchive(drawArchive(t, 2))
	case "ref":
		return resource.NewReference(drawReference(t))
	case "unknown":
		return resource.Unknown()
	case "array":
		n := rapid.IntRange(0, 3).Draw(t, "len")
		elems := make([]resource.Value, n)
		for i := range elems {
			elems[i] = drawValue(t, depth-1, bytes)
		}
		return resource.NewArray(elems...)
	case "object":
		return resource.NewObject(drawObject(t, depth, bytes))
	case "secret":
		return resource.MakeSecret(drawValue(t, depth-1, bytes))
	}
	return resource.Null()
}

func drawAsset(t *rapid.T) *resource.Asset {
	opt := func(label string) string {
		return rapid.SampledFrom([]string{"", "", label + "-1", "some text\n"}).Draw(t, label)
	}
	return &resource.Asset{Hash: opt("hash"), Text: opt("text"), Path: opt("path"), URI: opt("uri")}
}

// drawArchive draws an archive as a peer would decode it: a path, else a
// URI, else members (never nil).
func drawArchive(t *rapid.T, depth int) *resource.Archive {
	a := &resource.Archive{Hash: rapid.SampledFrom([]string{"", "h1"}).Draw(t, "hash")}
	switch rapid.IntRange(0, 2).Draw(t, "source") {
	case 0:
		a.Path = "dir/archive.zip"
	case 1:
		a.URI = "https://example.com/a.tgz"
	default:
		a.Assets = map[string]resource.Value{}
		for _, name := range rapid.SliceOfN(rapid.StringMatching(`[a-z/.]{1,6}`), 0, 3).Draw(t, "members") {
			if depth > 0 && rapid.Bool().Draw(t, "nested") {
				a.Assets[name] = resource.NewArchive(drawArchive(t, depth-1))
			} else {
				a.Assets[name] = resource.NewAsset(drawAsset(t))
			}
		}
	}
	return a
}

// drawReference draws a reference with no ID (a component), a non-empty
// string ID, or an unknown ID. (An empty string ID is the wire's spelling
// of unknown; it is tested on its own.)
func drawReference(t *rapid.T) resource.Reference {
	r := resource.Reference{
		URN:            resource.URN(fmt.Sprintf("urn:pulumi:dev::proj::pkg:mod:T::r%d", rapid.IntRange(0, 9).Draw(t, "n"))),
		PackageVersion: rapid.SampledFrom([]string{"", "1.2.3"}).Draw(t, "version"),
	}
	switch rapid.IntRange(0, 2).Draw(t, "id") {
	case 1:
		id := resource.NewString("id-" + rapid.StringMatching(`[a-z0-9]{1,5}`).Draw(t, "idtext"))
		r.ID = &id
	case 2:
		id := resource.Unknown()
		r.ID = &id
	}
	return r
}

// canon turns a value into plain data that cmp can compare and print,
// strictly: assets compare field by field, secrets and unknowns are marked.
func canon(v resource.Value) any {
	switch v.Kind() {
	case resource.BoolKind:
		return v.Bool()
	case resource.NumberKind:
		return v.Number()
	case resource.StringKind:
		return v.Str()
	case resource.ArrayKind:
		out := []any{}
		for _, e := range v.Array() {
			out = append(out, canon(e))
		}
		return out
	case resource.ObjectKind:
		return canonObject(v.Object())
	case resource.AssetKind:
		return *v.Asset()
	case resource.ArchiveKind:
		return canonArchive(v.Archive())
	case resource.ReferenceKind:
		return canonRef(v.Reference())
	case resource.UnknownKind:
		return "<unknown>"
	case resource.SecretKind:
		return map[string]any{"<secret>": canon(v.SecretElement())}
	}
	return nil
}

func canonObject(o resource.Object) map[string]any {
	if o == nil {
		return nil
	}
	out := map[string]any{}
	for k, e := range o {
		out[k] = canon(e)
	}
	return out
}

func canonArchive(a *resource.Archive) map[string]any {
	members := map[string]any{}
	for k, m := range a.Assets {
		members[k] = canon(m)
	}
	return map[string]any{"<archive>": a.Hash, "path": a.Path, "uri": a.URI, "assets": members}
}

func canonRef(r resource.Reference) map[string]any {
	out := map[string]any{"<ref>": string(r.URN), "version": r.PackageVersion}
	if r.ID != nil {
		out["id"] = canon(*r.ID)
	}
	return out
}
