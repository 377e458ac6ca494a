package state

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
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
