package state

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeSnapshotSplitMatchesEncodingJSON: a snapshot decoded by
// parseSnapshotSplit (resources found in one pass, each checked where it
// decodes) reads as when encoding/json decoded it whole: the same
// resources, header, checksum verdict and, for anything malformed, the
// same error, placed the same.
func TestDecodeSnapshotSplitMatchesEncodingJSON(t *testing.T) {
	good, err := EncodeSnapshot(bigSnapshot(3), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(good)
	res := doc[strings.Index(doc, `"resources":`)+len(`"resources":`) : strings.LastIndex(doc, "]")+1]
	el := func(i int) string { return string(splitArray([]byte(res))[i]) }
	tests := map[string]struct {
		data  string
		split bool // whether parseSnapshotSplit takes it
	}{
		"as written":               {doc, true},
		"spaces everywhere":        {" {\n \"version\" : 2 ,\t\"resources\" : [ \n" + el(0) + " ,\r\n " + el(1) + " ] , \"seq\" : 3 } \n", true},
		"outputs after resources":  {`{"version":2,"resources":[` + el(0) + `],"outputs":{"a":"[\"]"}}`, true},
		"unknown members":          {`{"x":[{"resources":1}],"version":2,"resources":[],"y":"resources"}`, true},
		"empty resources":          {`{"version":2,"resources":[]}`, true},
		"a resource of bad type":   {`{"version":2,"resources":[` + el(0) + `,{"urn":"a","custom":"yes"}]}`, true},
		"bad version":              {`{"version":9,"resources":[` + el(0) + `]}`, true},
		"null resources":           {`{"version":2,"resources":null}`, false},
		"no resources":             {`{"version":2}`, false},
		"resources an object":      {`{"version":2,"resources":{}}`, false},
		"Resources":                {`{"version":2,"Resources":[` + el(0) + `]}`, false},
		"escaped name":             {`{"version":2,"resource\u0073":[` + el(0) + `]}`, false},
		"twice":                    {`{"version":2,"resources":[` + el(0) + `],"resources":[]}`, false},
		"resource not JSON":        {`{"version":2,"resources":[` + el(0) + `,{"urn":"a",}]}`, false},
		"brackets crossed":         {`{"version":2,"resources":[{"urn":"a","x":[1}]]}`, false},
		"missing comma":            {`{"version":2,"resources":[` + el(0) + ` ` + el(1) + `]}`, false},
		"trailing comma":           {`{"version":2,"resources":[` + el(0) + `,]}`, false},
		"header not JSON":          {`{"version":2x,"resources":[]}`, false},
		"header of bad type":       {`{"version":"2","resources":[` + el(0) + `]}`, false},
		"trailing text":            {`{"version":2,"resources":[]} x`, false},
		"cut short":                {doc[:len(doc)/2], false},
		"nested past JSON's limit": {`{"version":2,"resources":[{"urn":"a","outputs":{"x":` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}}]}`, false},
		"nested within the bound":  {`{"version":2,"resources":[{"urn":"a","outputs":{"x":` + strings.Repeat("[", 990) + strings.Repeat("]", 990) + `}}]}`, true},
		"not an object":            {`[1]`, false},
		"empty":                    {``, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, ok := parseSnapshotSplit([]byte(tt.data), nil); ok != tt.split {
				t.Errorf("parseSnapshotSplit took it: %v, want %v", ok, tt.split)
			}
			for _, strict := range []bool{false, true} {
				want := describeDecoded(decodeSnapshotAs([]byte(tt.data), nil, strict, false))
				got := describeDecoded(decodeSnapshotAs([]byte(tt.data), nil, strict, true))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("strict %v (-encoding/json +split):\n%s", strict, diff)
				}
			}
		})
	}
}

// describeDecoded is what decodeSnapshot returned, in words and the
// snapshot as it encodes.
func describeDecoded(d decodedSnapshot, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	enc, encErr := EncodeSnapshot(d.snap, d.seq, nil)
	return fmt.Sprintf("seq %d lineage %q serial %d legacy %v badChecksum %v encodeErr %v\n%s",
		d.seq, d.lineage, d.serial, d.legacy, d.badChecksum, encErr, enc)
}

// TestFindResourcesAnyText: findResources finds nothing in a snapshot
// cut short anywhere, and finds its resources whole.
func TestFindResourcesAnyText(t *testing.T) {
	good, err := EncodeSnapshot(bigSnapshot(2), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(bytes.TrimSpace(good)) {
		if _, _, _, found := findResources(good[:n]); found {
			t.Errorf("findResources found resources in the first %d bytes of a snapshot", n)
		}
	}
	if start, end, elems, found := findResources(good); !found || good[start] != '[' || good[end-1] != ']' || len(elems) != 3 {
		t.Errorf("findResources(snapshot) = %d, %d, %d elements, %v; want the array of 3 resources", start, end, len(elems), found)
	}
}
