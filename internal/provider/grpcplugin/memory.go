package grpcplugin

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
)

// The record a plugin's collector setting is chosen from (ChooseGOGC) is
// the Memory of its binary's largest run, kept in the schema cache under
// the binary's checksum, which the adapters (internal/provider/tfplugin,
// pulumirpc, mu) share. The checksum must be known before the process starts,
// so only a recorded one is used (schemacache.KnownSum): the first run of
// a new binary keeps Go's default and records what it used. The record is
// that of the run that kept most, so a small command does not raise the
// GOGC of a large one.

// MemoryKey is what the memory of a plugin started from the binary with
// checksum sum ("" if unknown) and with args is recorded under: the
// checksum, with its arguments' hash when it has some (a hosted provider
// is node running a script: another program than node running another).
func MemoryKey(sum string, args []string) string {
	if sum == "" || len(args) == 0 {
		return sum
	}
	h := sha256.Sum256([]byte(strings.Join(args, "\x00")))
	return sum + "-" + hex.EncodeToString(h[:8])
}

// Environ is the environment of a plugin whose configured environment is
// env (nil: plinth's own) with c's setting added.
func (c Collector) Environ(env []string) []string {
	if c.Env == "" {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	return append(append([]string(nil), env...), c.Env)
}

// MemoryEntry names the cache entry of the Memory of the runs of the
// binary with checksum sum (or a MemoryKey), "" if the checksum is
// unknown.
func MemoryEntry(sum string) string {
	if sum == "" {
		return ""
	}
	return sum + "-memory"
}

// RecordedMemory reads the Memory recorded for the binary with checksum
// sum; ok is false if there is none.
func RecordedMemory(cache schemacache.Cache, sum string) (Memory, bool) {
	raw, found := cache.Get(MemoryEntry(sum))
	if !found {
		return Memory{}, false
	}
	return ParseMemory(raw)
}

// CollectorFor chooses the collector setting of a plugin whose binary has
// the checksum sum ("" if not known yet) and whose environment is
// plinth's plus extra, from the binary's recorded Memory and plinth's
// GOGCEnv.
func CollectorFor(cache schemacache.Cache, sum string, extra []string) (Collector, error) {
	last, ok := RecordedMemory(cache, sum)
	return ChooseGOGC(os.Getenv, os.Environ(), extra, last, ok)
}

// RecordMemory keeps peak, the peak resident memory of a plugin's run
// (PeakRSS, read before it was stopped; 0 if unknown), if the GOGC it ran
// with (gc.GOGC) and its binary's checksum (sum) are known and it kept
// more than the largest run recorded.
func RecordMemory(cache schemacache.Cache, sum string, gc Collector, peak uint64) {
	if gc.GOGC == 0 || sum == "" || peak == 0 {
		return
	}
	run := Memory{PeakRSS: peak, GOGC: gc.GOGC}
	last, ok := RecordedMemory(cache, sum)
	if m := Larger(last, ok, run); m != last {
		cache.Put(MemoryEntry(sum), m.Encode())
	}
}
