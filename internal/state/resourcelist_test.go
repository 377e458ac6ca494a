package state

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestSplitArray: the elements splitArray finds are those encoding/json
// finds, whatever brackets, quotes, escapes and commas the strings
// inside them hold.
func TestSplitArray(t *testing.T) {
	tests := map[string]string{
		"empty":              `[]`,
		"empty with spaces":  " [ \n\t ] ",
		"one object":         `[{"a":1}]`,
		"literals":           `[true, false, null, -1.5e3, "s"]`,
		"nested":             `[{"a":[1,{"b":[]}]},[[],[{}]]]`,
		"brackets in string": `[{"a":"]},[{"}, "[", "}"]`,
		"escaped quotes":     `[{"a":"\"],\\"}, "\\", "\\\""]`,
		"unicode escape":     `[{"\u005d":"\u0022"}, {}]`,
		"whitespace":         "[\n  {\"a\": 1} ,\n  {\"b\": 2}\r\n]",
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			var want []json.RawMessage
			if err := json.Unmarshal([]byte(doc), &want); err != nil {
				t.Fatal(err)
			}
			var got []json.RawMessage
			for _, e := range splitArray([]byte(strings.TrimSpace(doc))) {
				got = append(got, e)
			}
			if diff := cmp.Diff(fmt.Sprint(want), fmt.Sprint(got)); diff != "" {
				t.Errorf("splitArray(%s) (-encoding/json +got):\n%s", doc, diff)
			}
		})
	}
}

// TestDecodeSnapshotKeepsOrderAndFirstError: resources decoded on
// several goroutines come back in the stored order, and of several bad
// resources the first one is reported, as when they decoded one by one.
func TestDecodeSnapshotKeepsOrderAndFirstError(t *testing.T) {
	s := bigSnapshot(3 * decodeChunk)
	for i, r := range s.Resources[1:] {
		r.Outputs["tricky"] = resource.NewString(fmt.Sprintf(`"]},{[%d\`, i))
	}
	data, err := EncodeSnapshot(s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := DecodeSnapshot(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wantURNs, gotURNs []resource.URN
	for i := range s.Resources {
		wantURNs, gotURNs = append(wantURNs, s.Resources[i].URN), append(gotURNs, got.Resources[i].URN)
		if !got.Resources[i].Outputs.Equal(s.Resources[i].Outputs) {
			t.Errorf("resource %d: outputs %v, want %v", i, got.Resources[i].Outputs, s.Resources[i].Outputs)
		}
	}
	if diff := cmp.Diff(wantURNs, gotURNs); diff != "" {
		t.Errorf("resource order (-stored +decoded):\n%s", diff)
	}
	// Two bad resources in different chunks: the earlier one's error wins.
	bad := string(data)
	for _, b := range []struct {
		i      int
		custom string
	}{{2*decodeChunk + 1, "7"}, {5, `"yes"`}} {
		urn := `"urn":"` + string(s.Resources[b.i].URN) + `"`
		bad = strings.Replace(bad, urn, urn+`,"custom":`+b.custom, 1)
	}
	_, err = decodeSnapshot([]byte(bad), nil, false)
	if err == nil || !strings.Contains(err.Error(), `holds a JSON string`) {
		t.Errorf("got %v, want the first bad resource's error (custom holds a JSON string)", err)
	}
}

// TestDecodedObjectsShareKeys: the property names of decoded objects are
// one string each, however many objects repeat them.
func TestDecodedObjectsShareKeys(t *testing.T) {
	a, err := DecodeObject([]byte(`{"length":2,"nested":{"length":3}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := DecodeObject([]byte(`{"length":4}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	keyData := func(o resource.Object, name string) *byte {
		for k := range o {
			if k == name {
				return unsafe.StringData(k)
			}
		}
		t.Fatalf("no key %q in %v", name, o)
		return nil
	}
	first, second, nested := keyData(a, "length"), keyData(b, "length"), keyData(a["nested"].Object(), "length")
	if first != second || first != nested {
		t.Errorf("the three decoded \"length\" keys are at %p, %p, %p; want one shared string", first, second, nested)
	}
}

// TestDecodedResourcesShareEqualInputs: resources stored with the same
// inputs share one decoded object; different or empty inputs do not.
func TestDecodedResourcesShareEqualInputs(t *testing.T) {
	s := bigSnapshot(4)
	same := resource.Object{"length": resource.NewNumber(2), "secret": resource.MakeSecret(resource.NewString("s"))}
	s.Resources[1].Inputs, s.Resources[2].Inputs = same.Copy(), same.Copy()
	s.Resources[3].Inputs = resource.Object{"length": resource.NewNumber(3)}
	s.Resources[4].Inputs = resource.Object{}
	data, err := EncodeSnapshot(s, 1, &fakeCrypter{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := DecodeSnapshot(data, &fakeCrypter{})
	if err != nil {
		t.Fatal(err)
	}
	id := func(i int) uintptr { return reflect.ValueOf(got.Resources[i].Inputs).Pointer() }
	if id(1) != id(2) {
		t.Error("resources 1 and 2, stored with the same inputs, have two decoded objects; want one shared")
	}
	if id(1) == id(3) {
		t.Error("resources 1 and 3 have different inputs but share a decoded object")
	}
	for i, r := range got.Resources[1:4] {
		if !r.Inputs.Equal(s.Resources[i+1].Inputs) {
			t.Errorf("resource %d: inputs %v, want %v", i+1, r.Inputs, s.Resources[i+1].Inputs)
		}
	}
}
