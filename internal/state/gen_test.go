package state

import (
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
	"pgregory.net/rapid"
)

// Generators of random values and resources for property tests.

// genValue returns values nested up to depth levels, of every storable kind.
func genValue(depth int) *rapid.Generator[resource.Value] {
	leaves := []*rapid.Generator[resource.Value]{
		rapid.Just(resource.Null()),
		rapid.Map(rapid.Bool(), resource.NewBool),
		genNumber(),
		rapid.Map(rapid.String(), resource.NewString),
		rapid.Map(genAsset(), resource.NewAsset),
		genReference(),
	}
	if depth <= 0 {
		return rapid.OneOf(leaves...)
	}
	inner := genValue(depth - 1)
	return rapid.OneOf(append(leaves,
		rapid.Map(rapid.SliceOfN(inner, 0, 4), func(vs []resource.Value) resource.Value { return resource.NewArray(vs...) }),
		rapid.Map(genObject(inner), resource.NewObject),
		rapid.Map(inner, resource.MakeSecret),
		genArchive(depth-1),
	)...)
}

func genObject(elem *rapid.Generator[resource.Value]) *rapid.Generator[resource.Object] {
	return rapid.Map(rapid.MapOfN(rapid.String(), elem, 0, 4), func(m map[string]resource.Value) resource.Object {
		delete(m, sigKey)
		return resource.Object(m)
	})
}

// genNumber makes doubles and literals a double cannot hold exactly (big
// integers and long decimals), which must keep every digit.
func genNumber() *rapid.Generator[resource.Value] {
	return rapid.OneOf(
		rapid.Map(rapid.Float64Range(-1e300, 1e300), resource.NewNumber),
		rapid.Map(rapid.IntRange(-1<<53, 1<<53), func(i int) resource.Value { return resource.NewNumber(float64(i)) }),
		rapid.Custom(func(t *rapid.T) resource.Value {
			lit := rapid.StringMatching(`-?[1-9][0-9]{19,40}(\.[0-9]{1,20})?`).Draw(t, "literal")
			v, err := resource.ParseNumber(lit)
			if err != nil {
				t.Fatalf("ParseNumber(%q): %v", lit, err)
			}
			return v
		}),
	)
}

func genHash() *rapid.Generator[string] { return rapid.StringMatching(`([0-9a-f]{64})?`) }

func genAsset() *rapid.Generator[*resource.Asset] {
	return rapid.Custom(func(t *rapid.T) *resource.Asset {
		a := &resource.Asset{Hash: genHash().Draw(t, "hash")}
		switch rapid.IntRange(0, 2).Draw(t, "source") {
		case 0:
			a.Text = rapid.String().Draw(t, "text")
		case 1:
			a.Path = rapid.StringMatching(`[a-z/]{1,12}`).Draw(t, "path")
		case 2:
			a.URI = "https://example.com/" + rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "uri")
		}
		return a
	})
}

func genArchive(depth int) *rapid.Generator[resource.Value] {
	return rapid.Custom(func(t *rapid.T) resource.Value {
		a := &resource.Archive{Hash: genHash().Draw(t, "hash")}
		switch rapid.IntRange(0, 2).Draw(t, "source") {
		case 0:
			member := rapid.Map(genAsset(), resource.NewAsset)
			if depth > 0 {
				member = rapid.OneOf(member, genArchive(depth-1))
			}
			a.Assets = rapid.MapOfN(rapid.String(), member, 0, 3).Draw(t, "assets")
		case 1:
			a.Path = rapid.StringMatching(`[a-z/]{1,12}`).Draw(t, "path")
		case 2:
			a.URI = "file:///" + rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "uri")
		}
		return resource.NewArchive(a)
	})
}

func genReference() *rapid.Generator[resource.Value] {
	return rapid.Custom(func(t *rapid.T) resource.Value {
		r := resource.Reference{
			URN:            urn(rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "name")),
			PackageVersion: rapid.StringMatching(`(1\.[0-9]\.[0-9])?`).Draw(t, "version"),
		}
		if rapid.Bool().Draw(t, "custom") {
			id := resource.NewString(rapid.String().Draw(t, "id"))
			r.ID = &id
		}
		return resource.NewReference(r)
	})
}

// valueCmp compares values exactly: kinds, secret marks, kept literals and
// every field of assets, archives and references.
var valueCmp = cmp.Exporter(func(t reflect.Type) bool { return t.PkgPath() == "github.com/plinth-iac/plinth/sdk/resource" })

// fakeCrypter seals by reversing and base64-encoding, so tests can see that
// sealing happened without real keys. It is not encryption.
type fakeCrypter struct{ sealed, opened int }

func (f *fakeCrypter) Seal(p []byte) (string, error) {
	f.sealed++
	r := make([]byte, len(p))
	for i, c := range p {
		r[len(p)-1-i] = c
	}
	return "fake:" + base64.StdEncoding.EncodeToString(r), nil
}

func (f *fakeCrypter) Open(c string) ([]byte, error) {
	f.opened++
	s, ok := strings.CutPrefix(c, "fake:")
	if !ok {
		return nil, errors.New("not sealed by fakeCrypter")
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("fakeCrypter: %w", err)
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return b, nil
}
