package pulumirpc

import (
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// A plugin's collector setting is chosen as a Terraform provider's is
// (grpcplugin.ChooseGOGC, grpcplugin.CollectorFor): from the Memory of its
// binary's largest run, recorded in the schema cache under
// grpcplugin.MemoryKey. The start reads the record only under a checksum
// the cache already knows, never hashing the binary first, so a new
// binary keeps Go's default; Close records the run under the checksum
// known by then (GetSchema hashes the binary when it reads the schema
// cache), so the next start can use it.

// recordMemory keeps peak, what the plugin's process used (read before
// it was stopped), under the key it was started with or, for a binary
// first hashed during this run, the one the cache knows now.
func (p *Provider) recordMemory(peak uint64) {
	key := p.proc.memKey
	if key == "" {
		key = grpcplugin.MemoryKey(p.schemas.KnownSum(p.path), p.args)
	}
	grpcplugin.RecordMemory(p.schemas, key, p.proc.gc, peak)
}
