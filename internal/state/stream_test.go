package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// streamingBackend is fakeBackend with StreamSnapshot; WriteSnapshot
// fails, so that a session that writes bytes held whole is caught.
type streamingBackend struct {
	fakeBackend
	streamed int
}

var _ SnapshotStreamer = (*streamingBackend)(nil)

func (b *streamingBackend) StreamSnapshot(_ context.Context, _ string, write func(io.Writer) (SnapshotPatch, error)) error {
	var buf bytes.Buffer
	p, err := write(&buf)
	if err != nil {
		return err
	}
	data := buf.Bytes()
	copy(data[p.At:], p.Data)
	b.snapshot, b.streamed = data, b.streamed+1
	return nil
}

func (b *streamingBackend) WriteSnapshot(context.Context, string, []byte) error {
	return errors.New("WriteSnapshot called on a backend that streams snapshots")
}

// TestCompactStreamsSnapshot checks that a session compacts into a
// backend that can stream a snapshot through StreamSnapshot, and that
// what it streams is the snapshot EncodeSnapshot gives, checksum and
// all: holding the whole encoded snapshot beside the state was the peak
// of a 100,000-resource create.
func TestCompactStreamsSnapshot(t *testing.T) {
	ctx := context.Background()
	data := encodedSnapshot(t)
	b := &streamingBackend{fakeBackend: fakeBackend{snapshot: checksumPrefix.ReplaceAll(data, []byte(`{"version":1,`))}}
	s, err := Open(ctx, b, "dev", OpenOptions{}) // a version 1 snapshot is rewritten at once
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if b.streamed == 0 {
		t.Fatal("the session never called StreamSnapshot")
	}
	if err := verifyChecksum(b.snapshot); err != nil {
		t.Fatalf("the streamed snapshot's checksum: %v", err)
	}
	want, _, err := DecodeSnapshot(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := DecodeSnapshot(b.snapshot, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(urns(want), urns(got)); diff != "" {
		t.Errorf("streamed snapshot (-want +got):\n%s", diff)
	}
}

// TestWriteSnapshotIsTheWholeDocument checks that the snapshot streamed
// to a writer and patched is, byte for byte, the document encoding/json
// gives the whole snapshot, checksum included.
func TestWriteSnapshotIsTheWholeDocument(t *testing.T) {
	snap := &Snapshot{Resources: []*Resource{prov("test"), thing("a", "a-1"), thing("b", "b-1", urn("a"))}}
	m := Mark{Lineage: "l", Serial: 3, Seq: 7}
	want := wholeDocSnapshot(t, snap, m)
	var buf bytes.Buffer
	p, err := writeSnapshot(&buf, snap, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	copy(got[p.At:], p.Data)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("streamed snapshot (-whole document +streamed):\n%s", diff)
	}
	if storedChecksum(got) != string(p.Data) {
		t.Errorf("patch %q is not the snapshot's checksum %q", p.Data, storedChecksum(got))
	}
}

// TestDecodedSnapshotKeepsNoBytes decodes snapshots, then overwrites the
// bytes they were decoded from: the decoded state must not change, as a
// backend may lend the bytes (the file backend maps the file) and take
// them back once the state is decoded.
func TestDecodedSnapshotKeepsNoBytes(t *testing.T) {
	odd := thing("a<b>&c", "id-\"1\"", providerURN("test"))
	odd.Outputs = resource.Object{"html": resource.NewString("<p>&amp;</p>"), "list": resource.NewArray(resource.NewString("x"))}
	odd.InputTypes = map[string]json.RawMessage{"html": json.RawMessage(`"string"`)}
	odd.Private = []byte("private")
	tests := map[string]*Snapshot{
		"big": bigSnapshot(50),
		"the rest": {
			Resources:   []*Resource{prov("test"), odd},
			Outputs:     resource.Object{"out": resource.NewString("<x>")},
			OutputTypes: map[string]json.RawMessage{"out": json.RawMessage(`"string"`)},
			Pending:     []PendingOperation{{Op: OpCreate, Resource: thing("b", ""), Started: t0}},
		},
	}
	for name, snap := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := EncodeSnapshot(snap, 4, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := DecodeSnapshot(bytes.Clone(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := DecodeSnapshot(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range data {
				data[i] = 'X'
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("after the bytes were overwritten (-decoded from a copy +decoded from them):\n%s", diff)
			}
		})
	}
}
