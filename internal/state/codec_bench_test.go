package state

import (
	"fmt"
	"testing"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// bigSnapshot returns n small resources, each depending on the one before.
func bigSnapshot(n int) *Snapshot {
	rs := []*Resource{prov("test")}
	for i := range n {
		r := thing(fmt.Sprint("r", i), fmt.Sprint("id-", i), rs[len(rs)-1].URN)
		r.Outputs["size"] = resource.NewNumber(float64(i))
		r.Outputs["tags"] = resource.NewObject(resource.Object{"env": resource.NewString("dev")})
		rs = append(rs, r)
	}
	return &Snapshot{Resources: rs}
}

func BenchmarkEncodeSnapshot100k(b *testing.B) {
	s := bigSnapshot(100_000)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		data, err := EncodeSnapshot(s, 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "bytes/snapshot")
}

func BenchmarkDecodeSnapshot100k(b *testing.B) {
	data, err := EncodeSnapshot(bigSnapshot(100_000), 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := DecodeSnapshot(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSnapshotSplit100k compares decodeSnapshot's two ways
// of reading a large snapshot: parseSnapshotSplit (split) and
// encoding/json over the whole text (whole). cpu-ns/op is the process's
// user and system CPU, which a loaded machine's wall time hides.
func BenchmarkDecodeSnapshotSplit100k(b *testing.B) {
	data, err := EncodeSnapshot(bigSnapshot(100_000), 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, split := range []bool{true, false} {
		b.Run(map[bool]string{true: "split", false: "whole"}[split], func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			start := cpuTime()
			for b.Loop() {
				if _, err := decodeSnapshotAs(data, nil, true, split); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

func BenchmarkEncodeEntry(b *testing.B) {
	e := &Entry{Seq: 1, Step: 1, Kind: End, Op: OpUpdate, Old: thing("a", "a-1"), New: thing("a", "a-1"), Time: t0}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeEntry(e, nil); err != nil {
			b.Fatal(err)
		}
	}
}
