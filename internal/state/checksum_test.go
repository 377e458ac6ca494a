package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeBackend is the smallest Backend for tests inside the package (the
// statetest backend imports state, so cannot be used here): one stack.
type fakeBackend struct {
	snapshot []byte
	journal  [][]byte
}

func (f *fakeBackend) ReadSnapshot(context.Context, string) ([]byte, error) {
	if f.snapshot == nil {
		return nil, fs.ErrNotExist
	}
	return f.snapshot, nil
}
func (f *fakeBackend) WriteSnapshot(_ context.Context, _ string, data []byte) error {
	f.snapshot = bytes.Clone(data)
	return nil
}
func (f *fakeBackend) AppendJournal(_ context.Context, _ string, rs [][]byte) error {
	f.journal = append(f.journal, rs...)
	return nil
}
func (f *fakeBackend) ReadJournal(context.Context, string) (JournalRead, error) {
	return JournalRead{Records: f.journal}, nil
}
func (f *fakeBackend) TruncateJournal(context.Context, string) error { f.journal = nil; return nil }
func (f *fakeBackend) Lock(context.Context, string, LockHolder) (Unlocker, error) {
	return f, nil
}
func (f *fakeBackend) Unlock(context.Context) error                 { return nil }
func (f *fakeBackend) ForceUnlock(context.Context, string) error    { return nil }
func (f *fakeBackend) ListStacks(context.Context) ([]string, error) { return []string{"dev"}, nil }
func (f *fakeBackend) RemoveStack(context.Context, string) error    { return nil }
func (f *fakeBackend) Describe(stack string, part Part) string      { return stack + "/" + string(part) }
func (f *fakeBackend) ReadSecretsConfig(context.Context, string) ([]byte, error) {
	return nil, fs.ErrNotExist
}
func (f *fakeBackend) CreateSecretsConfig(context.Context, string, []byte) (bool, []byte, error) {
	return true, nil, nil
}
func (f *fakeBackend) WriteSecretsConfig(context.Context, string, []byte) error { return nil }

func encodedSnapshot(t *testing.T) []byte {
	t.Helper()
	snap := &Snapshot{Resources: []*Resource{prov("test"), thing("a", "a-1"), thing("b", "b-1", urn("a"))}}
	data, err := EncodeSnapshot(snap, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSnapshotChecksumDetectsEveryFlip flips each byte of a stored
// snapshot in turn: every flip must be refused.
func TestSnapshotChecksumDetectsEveryFlip(t *testing.T) {
	data := encodedSnapshot(t)
	if _, _, err := DecodeSnapshot(data, nil); err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for i := range data {
		for _, mask := range []byte{0x01, 0x20, 0x80} {
			bad := bytes.Clone(data)
			bad[i] ^= mask
			if _, _, err := DecodeSnapshot(bad, nil); err == nil {
				accepted++
				t.Errorf("flipping byte %d (%q) with %#x was accepted", i, data[i], mask)
			}
		}
	}
	for n := range len(data) {
		if _, _, err := DecodeSnapshot(data[:n], nil); err == nil {
			t.Errorf("the snapshot cut to %d of %d bytes was accepted", n, len(data))
		}
	}
	if accepted > 0 {
		t.Logf("%d of %d flips accepted", accepted, 3*len(data))
	}
}

// TestLegacySnapshotIsReadAndRewritten reads a version 1 snapshot, which
// has no checksum, and checks that opening the stack rewrites it with one.
func TestLegacySnapshotIsReadAndRewritten(t *testing.T) {
	ctx := context.Background()
	data := encodedSnapshot(t)
	legacy := checksumPrefix.ReplaceAll(data, []byte(`{"version":1,`))
	want, _, err := DecodeSnapshot(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, seq, err := DecodeSnapshot(legacy, nil)
	if err != nil || seq != 7 {
		t.Fatalf("reading a version 1 snapshot: seq %d, error %v", seq, err)
	}
	if diff := cmp.Diff(urns(want), urns(got)); diff != "" {
		t.Errorf("version 1 snapshot (-want +got):\n%s", diff)
	}
	// A version 1 snapshot that carries a checksum field is damaged.
	if _, _, err := DecodeSnapshot(bytes.Replace(data, []byte(`"version":2`), []byte(`"version":1`), 1), nil); err == nil {
		t.Error("a snapshot claiming version 1 with a checksum was accepted")
	}
	b := &fakeBackend{snapshot: legacy}
	s, err := Open(ctx, b, "dev", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := verifyChecksum(b.snapshot); err != nil {
		t.Errorf("after opening, the snapshot is %.40q…: %v; want it rewritten with a checksum", b.snapshot, err)
	}
}

func TestChecksumErrorIsDamage(t *testing.T) {
	data := encodedSnapshot(t)
	data[len(data)/2] ^= 1
	b := &fakeBackend{snapshot: data}
	_, err := Load(context.Background(), b, "dev", OpenOptions{})
	var de *DamagedError
	var ce *ChecksumError
	if !errors.As(err, &de) || !errors.As(err, &ce) || !strings.Contains(err.Error(), "state export --force") {
		t.Errorf("error = %v, want a DamagedError for the checksum that points at `state export --force`", err)
	}
}

// TestVerifyChecksumKeepsNoCopy checks that verifying a snapshot's
// checksum does not copy the snapshot: it runs while the whole decoded
// state and the file's bytes are live, and a copy of a 100,000-resource
// state file was 44 MB more at the peak of its load.
func TestVerifyChecksumKeepsNoCopy(t *testing.T) {
	snap := &Snapshot{}
	for i := range 2000 {
		snap.Resources = append(snap.Resources, thing(fmt.Sprintf("r%d", i), fmt.Sprintf("id-%d", i)))
	}
	data, err := EncodeSnapshot(snap, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = verifyChecksum(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(data))/4 {
		t.Errorf("verifying a %d-byte snapshot allocated %d bytes; want no copy of it", len(data), n)
	}
}
