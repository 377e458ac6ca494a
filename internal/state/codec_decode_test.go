package state

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// heapAtLastOpen is a fakeCrypter that, when it opens the secret of the
// last resource, collects garbage and notes the live heap.
type heapAtLastOpen struct {
	fakeCrypter
	last   string
	atLast uint64
}

func (h *heapAtLastOpen) Open(c string) ([]byte, error) {
	p, err := h.fakeCrypter.Open(c)
	if string(p) == h.last {
		h.atLast = liveHeap()
	}
	return p, err
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestDecodeSnapshotHoldsOneFormAtATime: a snapshot's resources are
// decoded one by one into Resources, so that while the last one is being
// decoded the heap holds the stored bytes and the decoded resources but
// not a second, intermediate form of all of them (a resourceJSON each,
// about 0.5 KB a resource when the stored form was decoded whole first).
func TestDecodeSnapshotHoldsOneFormAtATime(t *testing.T) {
	const n = 4000
	s := bigSnapshot(n)
	for i, r := range s.Resources[1:] {
		r.Outputs["key"] = resource.MakeSecret(resource.NewString(fmt.Sprint("secret-", i)))
	}
	c := &heapAtLastOpen{last: fmt.Sprintf("%q", fmt.Sprint("secret-", n-1))}
	data, err := EncodeSnapshot(s, 1, c)
	if err != nil {
		t.Fatal(err)
	}
	s = nil
	got, _, err := DecodeSnapshot(data, c)
	if err != nil {
		t.Fatal(err)
	}
	after := liveHeap()
	runtime.KeepAlive(got)
	runtime.KeepAlive(data)
	if c.atLast == 0 {
		t.Fatalf("the last resource's secret was never opened (want plaintext %s)", c.last)
	}
	if extra := int64(c.atLast) - int64(after); extra > n*100 {
		t.Errorf("decoding the last resource, the heap held %d bytes (%d a resource) more than the decoded snapshot and its bytes; decode the resources one at a time (decodeResources)", extra, extra/n)
	}
}

// TestDecodedResourcesShareRepeatedStrings: resources of one snapshot
// that have the same type, provider or parent share one copy of it.
func TestDecodedResourcesShareRepeatedStrings(t *testing.T) {
	data, err := EncodeSnapshot(bigSnapshot(3), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := DecodeSnapshot(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := got.Resources[1], got.Resources[2]
	for _, f := range []struct {
		name string
		x, y string
	}{{"type", a.Type, b.Type}, {"provider", a.Provider, b.Provider}} {
		if f.x != f.y || unsafe.StringData(f.x) != unsafe.StringData(f.y) {
			t.Errorf("the %s of %s and %s is held twice (%q, %q); decodeResources should share it", f.name, a.URN, b.URN, f.x, f.y)
		}
	}
}
