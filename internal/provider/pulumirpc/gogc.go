package pulumirpc

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// A plugin's collector setting is chosen as a Terraform provider's is
// (grpcplugin.ChooseGOGC, grpcplugin.CollectorFor): from the Memory of its
// binary's largest run, recorded in the schema cache. The start reads the
// record only under a checksum the cache already knows, never hashing the
// binary first, so a new binary keeps Go's default; Close records the run
// under the checksum known by then (GetSchema hashes the binary when it
// reads the schema cache), so the next start can use it.

// memoryKey is what a plugin's memory is recorded under: its binary's
// checksum sum ("" if unknown), with its arguments when it has some (a
// hosted provider is node running a script: another program than node
// with another one).
func memoryKey(sum string, args []string) string {
	if sum == "" || len(args) == 0 {
		return sum
	}
	h := sha256.Sum256([]byte(strings.Join(args, "\x00")))
	return sum + "-" + hex.EncodeToString(h[:8])
}

// withCollector is the environment of a plugin whose configured
// environment is env (nil: plinth's own) with its collector setting.
func withCollector(env []string, gc grpcplugin.Collector) []string {
	if gc.Env == "" {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	return append(append([]string(nil), env...), gc.Env)
}

// recordMemory keeps what the plugin's reaped process used, under the key
// it was started with or, for a binary first hashed during this run, the
// one the cache knows now.
func (p *Provider) recordMemory() {
	key := p.proc.memKey
	if key == "" {
		key = memoryKey(p.schemas.KnownSum(p.path), p.args)
	}
	grpcplugin.RecordMemory(p.schemas, key, p.proc.gc, p.proc.Proc.Cmd.ProcessState)
}
