package mu

import (
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// A plugin's collector setting is chosen as a Terraform provider's is
// (grpcplugin.ChooseGOGC, grpcplugin.CollectorFor): from the Memory of its
// binary's largest run, recorded in the schema cache under
// grpcplugin.MemoryKey. The protocol has no schema, so nothing else hashes
// the binary: the start reads the record only under a checksum the cache
// already knows, and otherwise hashes the binary while it starts (as
// tfplugin does), so that Close can record the run.

// memoryRecord is what a plugin's run is recorded by: the cache, the
// collector setting it was started with, its arguments and its binary's
// checksum (once known).
type memoryRecord struct {
	cache schemacache.Cache
	gc    grpcplugin.Collector
	args  []string
	sums  <-chan string
}

// newMemoryRecord chooses the collector setting of the plugin cfg starts.
func newMemoryRecord(cfg Config) (memoryRecord, error) {
	cache := schemacache.Cache{Dir: cfg.SchemaCache}
	m := memoryRecord{cache: cache, args: cfg.Args}
	sums := make(chan string, 1)
	m.sums = sums
	known := cache.KnownSum(cfg.Path)
	if known != "" || cfg.SchemaCache == "" {
		sums <- known
	} else {
		go func() { sums <- cache.Sum(cfg.Path) }()
	}
	var err error
	m.gc, err = grpcplugin.CollectorFor(cache, grpcplugin.MemoryKey(known, cfg.Args), cfg.Env)
	return m, err
}

// record keeps peak, what the plugin's process used (read before it was
// stopped).
func (m memoryRecord) record(peak uint64) {
	grpcplugin.RecordMemory(m.cache, grpcplugin.MemoryKey(<-m.sums, m.args), m.gc, peak)
}
