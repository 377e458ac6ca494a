package state

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestFastResourceJSONMatchesEncodingJSON: whatever fastResourceJSON
// reads, it reads as encoding/json does, for stored resources with any
// fields, with space added between tokens.
func TestFastResourceJSONMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		usual := rapid.Bool().Draw(t, "usual") // fields and strings fastResourceJSON reads
		text := genText()
		if usual {
			text = rapid.StringMatching(`[a-zA-Z0-9:$/_.é€-]{0,12}`)
		}
		r := genFullResource(t, text)
		if usual {
			r.SecretID, r.PropertyDependencies, r.CustomTimeouts, r.Private = false, nil, CustomTimeouts{}, nil
			r.DestroyProvisioners, r.DeleteHooks, r.InputTypes = nil, DeleteHooks{}, nil
		}
		elem, err := (&valueEncoder{crypter: &fakeCrypter{}}).appendResource(nil, r)
		if err != nil {
			t.Skip("not storable:", err)
		}
		if rapid.Bool().Draw(t, "spaced") {
			var spaced bytes.Buffer
			if err := json.Indent(&spaced, elem, " ", "\t "); err != nil {
				t.Fatalf("appendResource wrote invalid JSON %s: %v", elem, err)
			}
			elem = spaced.Bytes()
		}
		compareFast(t, elem)
	})
}

// TestFastResourceJSONLeavesTheRestToEncodingJSON: members it does not
// read exactly as encoding/json would send the element the slow way, and
// the usual resources go the fast way.
func TestFastResourceJSONLeavesTheRestToEncodingJSON(t *testing.T) {
	tests := map[string]struct {
		elem string
		fast bool
	}{
		"usual":              {`{"urn":"u","type":"t","custom":true,"id":"i","inputs":{"a":"}"},"outputs":{"b":[1,{"c":"]"}]},"provider":"p","created":"2024-01-02T03:04:05.5Z"}`, true},
		"empty":              {`{}`, true},
		"empty lists":        {`{"urn":"u","dependencies":[],"ignoreChanges":[]}`, true},
		"other spelling":     {`{"URN":"u"}`, false},
		"twice":              {`{"urn":"u","urn":"v"}`, false},
		"null":               {`{"urn":"u","parent":null}`, false},
		"escape":             {`{"urn":"u\"v"}`, false},
		"escaped name":       {`{"ur\u006e":"u"}`, false},
		"invalid UTF-8":      {"{\"urn\":\"u\xff\"}", false},
		"unknown member":     {`{"urn":"u","future":1}`, false},
		"rare member":        {`{"urn":"u","customTimeouts":{"create":"1m"}}`, false},
		"number for a bool":  {`{"urn":"u","custom":1}`, false},
		"string for a list":  {`{"urn":"u","dependencies":"x"}`, false},
		"not a time":         {`{"urn":"u","created":"yesterday"}`, false},
		"array for inputs":   {`{"urn":"u","inputs":[]}`, false},
		"not an object":      {`["urn"]`, false},
		"unicode, unescaped": {`{"urn":"ü€𝄞"}`, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, fast := fastResourceJSON([]byte(tc.elem))
			if fast != tc.fast {
				t.Errorf("fast = %v, want %v", fast, tc.fast)
			}
			compareFast(t, []byte(tc.elem))
		})
	}
}

// compareFast checks that fastResourceJSON, if it reads elem, reads what
// json.Unmarshal does.
func compareFast(t interface{ Fatalf(string, ...any) }, elem []byte) {
	got, ok := fastResourceJSON(elem)
	if !ok {
		return
	}
	var want resourceJSON
	if err := json.Unmarshal(elem, &want); err != nil {
		t.Fatalf("fastResourceJSON read %s, which encoding/json refuses: %v", elem, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s (-encoding/json +fastResourceJSON):\n%s", elem, diff)
	}
}
