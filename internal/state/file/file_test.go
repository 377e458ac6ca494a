package file

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/statetest"
)

func TestConformance(t *testing.T) {
	statetest.Run(t, func(t *testing.T) state.Backend { return New(t.TempDir()) },
		statetest.WithTear(tearJournal),
		statetest.WithCorrupt(corruptRecord),
		statetest.WithStaleLocks(),
		statetest.WithLoseSnapshot(func(t *testing.T, b state.Backend, stack string) {
			if err := os.Remove(b.Describe(stack, state.PartSnapshot)); err != nil {
				t.Fatal(err)
			}
		}),
	)
}

func journalPath(t *testing.T, b state.Backend, stack string) string {
	t.Helper()
	return b.Describe(stack, state.PartJournal)
}

// tearJournal cuts the journal in the middle of its last record.
func tearJournal(t *testing.T, b state.Backend, stack string) {
	p := journalPath(t, b, stack)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	last := recordOffsets(t, data)
	cut := last[len(last)-1] + headerSize + 3
	if err := os.Truncate(p, int64(cut)); err != nil {
		t.Fatal(err)
	}
}

// corruptRecord flips a byte in the payload of record i.
func corruptRecord(t *testing.T, b state.Backend, stack string, i int) {
	p := journalPath(t, b, stack)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[recordOffsets(t, data)[i]+headerSize] ^= 0x20
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func recordOffsets(t *testing.T, data []byte) []int {
	var offs []int
	for off := 0; off < len(data); {
		_, size, ok := parseFrame(data[off:])
		if !ok {
			t.Fatalf("no valid record at byte %d", off)
		}
		offs = append(offs, off)
		off += size
	}
	return offs
}

func TestJournalParse(t *testing.T) {
	var good []byte
	for _, r := range []string{"one", "two", "three"} {
		good = appendFrame(good, []byte(r))
	}
	zeros := append(append([]byte{}, good...), make([]byte, 64)...)
	badLen := append([]byte{}, good...)
	binary.BigEndian.PutUint32(badLen[0:4], 1<<29) // record 1 claims to run past the end
	tests := map[string]struct {
		data    []byte
		want    []string
		corrupt int // record number in the CorruptError, 0 for none
		torn    string
	}{
		"empty":             {data: nil},
		"whole":             {data: good, want: []string{"one", "two", "three"}},
		"torn header":       {data: good[:len(good)-8-3], want: []string{"one", "two"}, torn: "record 3: 2 bytes at 22"},
		"torn payload":      {data: good[:len(good)-2], want: []string{"one", "two"}, torn: "record 3: 11 bytes at 22"},
		"zeros after crash": {data: zeros, want: []string{"one", "two", "three"}, torn: "record 4: 64 bytes at 35"},
		"bad length first":  {data: badLen, corrupt: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			read, err := parseJournal("j", tc.data)
			var ce *state.JournalCorruptError
			if tc.corrupt > 0 {
				if !errors.As(err, &ce) || ce.Record != tc.corrupt {
					t.Fatalf("error = %v, want a CorruptError for record %d", err, tc.corrupt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			torn := ""
			if tt := read.Torn; tt != nil {
				torn = fmt.Sprintf("record %d: %d bytes at %d", tt.Record, tt.Bytes, tt.Offset)
			}
			if torn != tc.torn {
				t.Errorf("torn tail reported as %q, want %q", torn, tc.torn)
			}
			var gs []string
			for _, g := range read.Records {
				gs = append(gs, string(g))
			}
			if diff := cmp.Diff(tc.want, gs); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzJournalParse(f *testing.F) {
	var good []byte
	for _, r := range []string{"one", `{"seq":2}`, "three"} {
		good = appendFrame(good, []byte(r))
	}
	f.Add(good)
	f.Add(good[:len(good)-4])
	f.Fuzz(func(t *testing.T, data []byte) {
		read, err := parseJournal("j", data)
		if err != nil {
			return
		}
		// What parses is a prefix of the data, framed the same way, and
		// the rest is reported as a torn tail.
		var again []byte
		for _, r := range read.Records {
			again = appendFrame(again, r)
		}
		if !strings.HasPrefix(string(data), string(again)) {
			t.Fatalf("parsed records do not frame to a prefix of the input")
		}
		dropped := int64(0)
		if tt := read.Torn; tt != nil {
			if tt.Offset != int64(len(again)) {
				t.Fatalf("torn tail reported at byte %d, want %d", tt.Offset, len(again))
			}
			dropped = tt.Bytes
		}
		if int64(len(again))+dropped != int64(len(data)) {
			t.Fatalf("%d bytes parsed and %d reported dropped, of %d", len(again), dropped, len(data))
		}
	})
}

func TestFileModesAndBackup(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b := New(root)
	if err := b.WriteSecretsConfig(ctx, "dev", []byte(`{"key":"k"}`)); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"first", "second"} {
		if err := b.WriteSnapshot(ctx, "dev", []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AppendJournal(ctx, "dev", [][]byte{[]byte("x")}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "stacks", "dev")
	for _, name := range []string{secretsFile, snapshotFile, journalFile} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if mode := info.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %o, want 600", name, mode)
		}
	}
	backup, err := os.ReadFile(filepath.Join(dir, backupFile))
	if err != nil || string(backup) != "first" {
		t.Errorf("backup = %q, %v; want the previous snapshot", backup, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestLockErrorNamesHolder(t *testing.T) {
	ctx := context.Background()
	b := New(t.TempDir())
	holder := state.CurrentProcess("plinth up")
	u, err := b.Lock(ctx, "dev", holder)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Unlock(ctx)
	_, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth destroy"))
	msg := err.Error()
	// The holder is this test, alive: the message says to wait, and does
	// not suggest breaking the lock.
	for _, want := range []string{"stack dev is locked by process", holder.Host, holder.Started.Format("2006-01-02T15:04:05Z07:00"), "(plinth up)", "still running"} {
		if !strings.Contains(msg, want) {
			t.Errorf("lock error %q does not mention %q", msg, want)
		}
	}
	if strings.Contains(msg, "unlock") {
		t.Errorf("lock error %q suggests breaking the lock of a live holder", msg)
	}
}

func TestUnreadableLockIsUnknownHolder(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b := New(root)
	dir := filepath.Join(root, "stacks", "dev")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, lockFile), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	var le *state.LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "an unknown process") {
		t.Fatalf("error = %v, want a LockedError naming an unknown process", err)
	}
}

// TestFramesAllocateOnce: a batch of journal records is framed into one
// buffer of its exact size, not grown record by record.
func TestFramesAllocateOnce(t *testing.T) {
	records := [][]byte{[]byte(`{"seq":1}`), make([]byte, 3000), []byte(`{"seq":3}`)}
	records[1][0] = '{'
	var got []byte
	allocs := testing.AllocsPerRun(10, func() {
		var err error
		if got, err = frames(nil, records); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 {
		t.Errorf("framing %d records took %v allocations, want 1", len(records), allocs)
	}
	if want := 3*headerSize + 9 + 3000 + 9; len(got) != want || cap(got) != want {
		t.Errorf("framed %d bytes in a buffer of %d, want %d in %d", len(got), cap(got), want, want)
	}
	var parsed [][]byte
	for off := 0; off < len(got); {
		payload, size, ok := parseFrame(got[off:])
		if !ok {
			t.Fatalf("no valid record at byte %d", off)
		}
		parsed = append(parsed, payload)
		off += size
	}
	if diff := cmp.Diff(records, parsed); diff != "" {
		t.Errorf("records read back (-want +got):\n%s", diff)
	}
}

// TestAppendJournalReusesItsBuffer: the buffer one append framed its
// records in frames the next one's without allocating, and both batches
// read back whole.
func TestAppendJournalReusesItsBuffer(t *testing.T) {
	ctx := context.Background()
	b := New(t.TempDir())
	batch := [][]byte{[]byte(`{"seq":1}`), []byte(`{"seq":2}`)}
	if err := b.AppendJournal(ctx, "dev", batch); err != nil {
		t.Fatal(err)
	}
	kept := b.takeFrameBuf()
	if cap(kept) < 2*headerSize+18 {
		t.Fatalf("the backend kept a buffer of %d bytes, want one the batch fits", cap(kept))
	}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := frames(kept, batch); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("framing into the kept buffer took %v allocations, want 0", allocs)
	}
	b.putFrameBuf(kept)
	if err := b.AppendJournal(ctx, "dev", [][]byte{[]byte(`{"seq":3}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := b.ReadJournal(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{[]byte(`{"seq":1}`), []byte(`{"seq":2}`), []byte(`{"seq":3}`)}
	if diff := cmp.Diff(want, got.Records); diff != "" {
		t.Errorf("journal read back (-want +got):\n%s", diff)
	}
}
