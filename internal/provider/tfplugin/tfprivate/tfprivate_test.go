package tfprivate

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	producer := bytes.Repeat([]byte{0xab}, ProducerSize)
	tests := map[string]struct {
		encoded []byte
		want    Data
	}{
		"empty":                      {nil, Data{}},
		"version only":               {Encode(3, nil), Data{SchemaVersion: 3, HasVersion: true}},
		"version and private":        {Encode(0, []byte("p")), Data{HasVersion: true, Provider: []byte("p")}},
		"produced":                   {EncodeProduced(2, producer, nil), Data{SchemaVersion: 2, HasVersion: true, Producer: producer}},
		"produced with private":      {EncodeProduced(1, producer, []byte("xyz")), Data{SchemaVersion: 1, HasVersion: true, Producer: producer, Provider: []byte("xyz")}},
		"short producer is left out": {EncodeProduced(1, []byte("short"), []byte("xyz")), Data{SchemaVersion: 1, HasVersion: true, Provider: []byte("xyz")}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Decode(tc.encoded)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeForeign(t *testing.T) {
	for name, b := range map[string][]byte{
		"other magic":        []byte("tfp9\x02"),
		"truncated producer": append([]byte("tfp2\x02"), bytes.Repeat([]byte{1}, ProducerSize-1)...),
		"no version":         []byte("tfp2"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Decode(b); !errors.Is(err, ErrForeign) {
				t.Errorf("Decode(%q) = %v, want ErrForeign", b, err)
			}
		})
	}
}
