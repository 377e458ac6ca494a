package state

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// wholeDocSnapshot encodes s as encodeSnapshot did before it streamed the
// resources: every resource into a snapshotJSON, then the document at
// once.
func wholeDocSnapshot(t *testing.T, s *Snapshot, m Mark) []byte {
	t.Helper()
	enc := &valueEncoder{}
	doc := snapshotJSON{Version: SnapshotVersion, Checksum: checksumPlaceholder, Seq: m.Seq, Lineage: m.Lineage, Serial: m.Serial,
		Resources: make([]*resourceJSON, len(s.Resources))}
	for i, r := range s.Resources {
		rj, err := enc.resource(r)
		if err != nil {
			t.Fatal(err)
		}
		doc.Resources[i] = rj
	}
	var err error
	if doc.Outputs, err = enc.rawObject(s.Outputs); err != nil {
		t.Fatal(err)
	}
	doc.OutputTypes = s.OutputTypes
	for _, p := range s.Pending {
		pj, err := enc.pending(p)
		if err != nil {
			t.Fatal(err)
		}
		doc.Pending = append(doc.Pending, pj)
	}
	data, err := marshalDoc(doc)
	if err != nil {
		t.Fatal(err)
	}
	data, err = sealChecksum(data)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestEncodeSnapshotStreamsTheSameBytes: encoding the resources one at a
// time gives, byte for byte, the document encoding/json gives the whole
// snapshot, for an empty state, HTML-like text, outputs and pending
// operations; and the result reads back.
func TestEncodeSnapshotStreamsTheSameBytes(t *testing.T) {
	odd := thing("a<b>&c", "id-\"1\"", providerURN("test"))
	odd.Outputs = resource.Object{"html": resource.NewString("<p>&amp;</p>"), "resources": resource.NewString(`"resources":[]`)}
	tests := map[string]struct {
		snap *Snapshot
		mark Mark
	}{
		"empty":    {snap: &Snapshot{}},
		"one":      {snap: &Snapshot{Resources: []*Resource{prov("test")}}, mark: Mark{Seq: 3}},
		"big":      {snap: bigSnapshot(50), mark: Mark{Seq: 9, Lineage: `"resources":[]`, Serial: 4}},
		"odd text": {snap: &Snapshot{Resources: []*Resource{prov("test"), odd}}},
		"the rest": {snap: &Snapshot{
			Resources:   []*Resource{prov("test"), thing("a", "a-1")},
			Outputs:     resource.Object{"out": resource.NewString("<x>")},
			OutputTypes: map[string]json.RawMessage{"out": json.RawMessage(`"string"`)},
			Pending:     []PendingOperation{{Op: OpCreate, Resource: thing("b", ""), Started: t0}},
		}, mark: Mark{Seq: 1, Lineage: "lin", Serial: 2}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			want := wholeDocSnapshot(t, tt.snap, tt.mark)
			got, err := encodeSnapshot(tt.snap, tt.mark, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("snapshot bytes (-whole document +streamed):\n%s", diff)
			}
			back, _, err := DecodeSnapshot(got, nil)
			if err != nil {
				t.Fatalf("decoding the streamed snapshot: %v", err)
			}
			if len(back.Resources) != len(tt.snap.Resources) {
				t.Errorf("decoded %d resources, want %d", len(back.Resources), len(tt.snap.Resources))
			}
		})
	}
}
