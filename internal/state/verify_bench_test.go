package state

import "testing"

// BenchmarkVerify100k checks a snapshot of 100,000 resources, as every
// load for an operation does.
func BenchmarkVerify100k(b *testing.B) {
	s := bigSnapshot(100_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}
