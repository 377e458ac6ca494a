package tfplugin

import (
	"os"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// A provider's collector setting (grpcplugin.ChooseGOGC says why and how
// it is chosen) comes from the Memory of its binary's last run, kept in
// the schema cache under the binary's checksum. The checksum must be
// known before the process starts, so only a recorded one is used
// (schemacache.KnownSum): the first run of a new binary, which hashes it
// while it starts, keeps Go's default, and records what it used. The
// record is that of the run that kept most, so a small command does not
// raise the GOGC of a large one.

// memoryEntry names the cache entry of the Memory of a binary's runs, ""
// if its checksum is unknown.
func memoryEntry(sum string) string {
	if sum == "" {
		return ""
	}
	return sum + "-memory"
}

// collector chooses the collector setting of the provider whose binary
// has the checksum sum ("" if not known yet).
func collector(cfg Config, cache schemacache.Cache, sum string) (grpcplugin.Collector, error) {
	last, ok := recordedMemory(cache, sum)
	return grpcplugin.ChooseGOGC(os.Getenv, os.Environ(), cfg.Env, last, ok)
}

// recordedMemory reads the Memory recorded for the binary with checksum
// sum; ok is false if there is none.
func recordedMemory(cache schemacache.Cache, sum string) (grpcplugin.Memory, bool) {
	raw, found := cache.Get(memoryEntry(sum))
	if !found {
		return grpcplugin.Memory{}, false
	}
	return grpcplugin.ParseMemory(raw)
}

// recordMemory keeps what the provider's process used, once it has been
// reaped, if its GOGC and its binary's checksum are known and it kept
// more than the largest run recorded.
func (p *Provider) recordMemory() {
	if p.runner == nil || p.runner.p == nil || p.gc.GOGC == 0 || p.sum == "" {
		return
	}
	select {
	case <-p.runner.p.Done():
	default:
		return // not reaped (yet): nothing is known of its peak
	}
	peak := grpcplugin.PeakRSS(p.runner.p.Cmd.ProcessState)
	if peak == 0 {
		return
	}
	cache := schemacache.Cache{Dir: p.cfg.SchemaCache}
	run := grpcplugin.Memory{PeakRSS: peak, GOGC: p.gc.GOGC}
	last, ok := recordedMemory(cache, p.sum)
	if m := grpcplugin.Larger(last, ok, run); m != last {
		cache.Put(memoryEntry(p.sum), m.Encode())
	}
}
