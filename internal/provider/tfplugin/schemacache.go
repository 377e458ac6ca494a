package tfplugin

import (
	"strconv"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
)

// The schema cache (internal/plugin/schemacache) keeps providers'
// GetProviderSchema answers across runs, so a provider that promises to
// answer without being asked for its schema
// (ServerCapabilities.GetProviderSchemaOptional, as Terraform itself
// relies on) is started without the call. Entries are named by the
// SHA-256 of the provider binary and the negotiated protocol: a rebuilt or
// upgraded binary misses. An entry holds the answer exactly as it came off
// the wire (protobuf), decoded by the same converter as a live answer, so
// the cache has no codec of its own to drift, and fields a newer provider
// sends survive in it. Any failure is a miss: the provider is asked, and
// its answer replaces the entry.

// schemaEntry names the cache entry of a binary's checksum under protocol,
// or "" if there is no checksum.
func schemaEntry(sum string, protocol int) string {
	if sum == "" {
		return ""
	}
	return sum + "-p" + strconv.Itoa(protocol) + ".pb"
}

// cachedSchema reads and decodes the entry called name; ok is false on any
// failure.
func cachedSchema(c schemacache.Cache, name string, w wire) (schemaResponse, bool) {
	raw, ok := c.Get(name)
	if !ok {
		return schemaResponse{}, false
	}
	resp, err := w.decodeSchema(raw)
	if err != nil || resp.provider == nil || !resp.caps.schemaOptional {
		return schemaResponse{}, false
	}
	return resp, true
}

// keepSchema keeps a live answer if the provider allows skipping the call
// and the answer holds no diagnostics (which must be shown on every run).
func keepSchema(c schemacache.Cache, name string, resp schemaResponse) {
	if !resp.caps.schemaOptional || len(resp.diags) > 0 || resp.encode == nil {
		return
	}
	if raw, err := resp.encode(); err == nil {
		c.Put(name, raw)
	}
}
