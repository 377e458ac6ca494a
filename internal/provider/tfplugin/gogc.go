package tfplugin

import (
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// A provider's collector setting (grpcplugin.ChooseGOGC says why and how
// it is chosen) comes from the Memory of its binary's largest run, which
// grpcplugin keeps in the schema cache under the binary's checksum
// (memory.go there). Start reads it before the launch, from a checksum
// it knows without hashing; Close records the run.

// peakRSS is the provider process's peak memory so far (0 if unknown):
// Close reads it before it stops the process.
func (p *Provider) peakRSS() uint64 {
	if p.runner == nil {
		return 0
	}
	return grpcplugin.PeakRSS(p.runner.p)
}

// recordMemory keeps peak, what the provider's process used, if its GOGC
// and its binary's checksum are known and it kept more than the largest
// run recorded.
func (p *Provider) recordMemory(peak uint64) {
	grpcplugin.RecordMemory(schemacache.Cache{Dir: p.cfg.SchemaCache}, p.sum, p.gc, peak)
}
