package tfplugin

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrivateRoundTrip(t *testing.T) {
	tests := map[string]struct {
		version int64
		tf      []byte
	}{
		"empty":        {0, nil},
		"version only": {3, nil},
		"with bytes":   {1, []byte(`{"schema_version":"1"}`)},
		"big version":  {1 << 40, []byte{0, 1, 2}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := decodePrivate(encodePrivate(tc.version, tc.tf))
			if err != nil {
				t.Fatal(err)
			}
			want := private{schemaVersion: tc.version, hasVersion: true, tf: tc.tf}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(private{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrivateDecodeErrors(t *testing.T) {
	if got, err := decodePrivate(nil); err != nil || got.hasVersion {
		t.Errorf("decodePrivate(nil) = %+v, %v; want no version and no error", got, err)
	}
	for name, b := range map[string][]byte{
		"foreign":   []byte("something else"),
		"truncated": []byte("tfp1"),
		"negative":  append([]byte("tfp1"), 0x01),
	} {
		if _, err := decodePrivate(b); err == nil {
			t.Errorf("%s: decodePrivate(%q) succeeded", name, b)
		}
	}
}

// Stored private data comes from state files: decoding must never panic,
// and what decodes re-encodes to the same bytes.
func FuzzDecodePrivate(f *testing.F) {
	f.Add([]byte(nil))
	f.Add(encodePrivate(2, []byte("x")))
	f.Add([]byte("tfp1\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodePrivate(b)
		if err != nil || !got.hasVersion {
			return
		}
		if again := encodePrivate(got.schemaVersion, got.tf); !bytes.Equal(again, b) {
			t.Errorf("decode(%q) re-encodes as %q", b, again)
		}
	})
}
