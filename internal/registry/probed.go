package registry

import (
	"context"
	"sync"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// probed holds the plugins started to ask their version during one
// NewProvider call, by path: the one the call picks is the provider it
// returns, so a plugin whose file name gives no version (the usual
// pulumi-resource-NAME on PATH) is started once per run, not twice. The
// call closes the rest before it returns.
type probed struct {
	mu    sync.Mutex
	procs map[string]provider.Provider
}

type probedKey struct{}

// withProbed returns a context under which probes keep what they start.
func withProbed(ctx context.Context) (context.Context, *probed) {
	p := &probed{procs: map[string]provider.Provider{}}
	return context.WithValue(ctx, probedKey{}, p), p
}

// keep hands a probed plugin's provider to the NewProvider call of ctx;
// false if there is none (plinth plugin ls --probe), or it already holds
// one for that path: the caller then closes it.
func keep(ctx context.Context, p plugin.Plugin, prov provider.Provider) bool {
	kept, _ := ctx.Value(probedKey{}).(*probed)
	if kept == nil {
		return false
	}
	kept.mu.Lock()
	defer kept.mu.Unlock()
	if _, ok := kept.procs[p.Path]; ok {
		return false
	}
	kept.procs[p.Path] = prov
	return true
}

// take removes and returns the provider probed at path, nil if none.
func (k *probed) take(path string) provider.Provider {
	k.mu.Lock()
	defer k.mu.Unlock()
	prov := k.procs[path]
	delete(k.procs, path)
	return prov
}

// closeRest closes what was probed and not taken.
func (k *probed) closeRest() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for path, prov := range k.procs {
		_ = prov.Close()
		delete(k.procs, path)
	}
}
