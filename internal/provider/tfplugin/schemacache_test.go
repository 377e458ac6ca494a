package tfplugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
)

// cacheRig is a fake provider binary of its own (a copy of the test
// binary, so it can be changed), a schema cache and the fake's log of
// GetSchema calls.
type cacheRig struct {
	bin, cache, log string
}

func newCacheRig(t *testing.T) *cacheRig {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	mustOK(t, "os.Executable", err)
	data, err := os.ReadFile(exe)
	mustOK(t, "reading the test binary", err)
	r := &cacheRig{bin: filepath.Join(dir, "terraform-provider-fake_v1.0.0"), cache: filepath.Join(dir, "cache"), log: filepath.Join(dir, "calls")}
	mustOK(t, "copying the test binary", os.WriteFile(r.bin, data, 0o755))
	return r
}

// start starts the fake in mode with the cache, creates a resource
// through it (so the schema it holds serves real calls) and returns the
// schema it exports.
func (r *cacheRig) start(t *testing.T, mode string) provider.GetSchemaResponse {
	t.Helper()
	ctx := context.Background()
	p, err := Start(ctx, Config{Path: r.bin, Dir: t.TempDir(), SchemaCache: r.cache,
		Env: []string{fakeModeEnv + "=" + mode, fakeSchemaLogEnv + "=" + r.log}})
	mustOK(t, "Start", err)
	defer p.Close()
	_, err = p.Configure(ctx, provider.ConfigureRequest{})
	mustOK(t, "Configure", err)
	_, err = p.Create(ctx, provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"})})
	mustOK(t, "Create", err)
	s, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	mustOK(t, "GetSchema", err)
	return s
}

// calls is how many times the fake was asked for its schema.
func (r *cacheRig) calls(t *testing.T) int {
	b, err := os.ReadFile(r.log)
	if os.IsNotExist(err) {
		return 0
	}
	mustOK(t, "reading the call log", err)
	return strings.Count(string(b), "\n")
}

// entries are the cache's schema entries.
func (r *cacheRig) entries(t *testing.T) []string {
	m, err := filepath.Glob(filepath.Join(r.cache, "v1", "*.pb"))
	mustOK(t, "listing the cache", err)
	return m
}

func corruptEntries(t *testing.T, r *cacheRig) {
	for _, e := range r.entries(t) {
		b, err := os.ReadFile(e)
		mustOK(t, "reading an entry", err)
		b[len(b)-1] ^= 0xff
		mustOK(t, "corrupting an entry", os.WriteFile(e, b, 0o644))
	}
}

func truncateEntries(t *testing.T, r *cacheRig) {
	for _, e := range r.entries(t) {
		mustOK(t, "truncating an entry", os.WriteFile(e, []byte("x"), 0o644))
	}
}

func changeBinary(t *testing.T, r *cacheRig) {
	f, err := os.OpenFile(r.bin, os.O_APPEND|os.O_WRONLY, 0)
	mustOK(t, "opening the binary", err)
	_, err = f.Write([]byte("trailing bytes change the checksum"))
	mustOK(t, "changing the binary", err)
	mustOK(t, "closing the binary", f.Close())
}

func unreadableCache(t *testing.T, r *cacheRig) {
	mustOK(t, "removing the cache", os.RemoveAll(r.cache))
	mustOK(t, "blocking the cache", os.WriteFile(r.cache, []byte("a file, not a directory"), 0o644))
}

func TestSchemaCache(t *testing.T) {
	type step struct {
		before func(*testing.T, *cacheRig)
		calls  int // GetSchema calls so far, after this step's start
	}
	tests := map[string]struct {
		mode  string
		steps []step
	}{
		"second start reads the cache": {modeCacheable, []step{{nil, 1}, {nil, 1}, {nil, 1}}},
		"corrupt entry is asked again and rewritten": {modeCacheable, []step{
			{nil, 1}, {corruptEntries, 2}, {nil, 2}, {truncateEntries, 3}, {nil, 3}}},
		"changed binary misses":                        {modeCacheable, []step{{nil, 1}, {changeBinary, 2}, {nil, 2}}},
		"unusable cache directory is no error":         {modeCacheable, []step{{nil, 1}, {unreadableCache, 2}, {nil, 3}}},
		"provider that needs the call is never cached": {modePlain, []step{{nil, 1}, {nil, 2}}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := newCacheRig(t)
			var first provider.GetSchemaResponse
			for i, s := range tt.steps {
				if s.before != nil {
					s.before(t, r)
				}
				got := r.start(t, tt.mode)
				if i == 0 {
					first = got
				} else if diff := cmp.Diff(first, got); diff != "" {
					t.Errorf("start %d: schema differs from the first start's (-first +got):\n%s", i+1, diff)
				}
				if n := r.calls(t); n != s.calls {
					t.Errorf("start %d: provider asked for its schema %d times in all, want %d", i+1, n, s.calls)
				}
			}
		})
	}
}

// TestRealSchemaCache starts each real provider without the cache, then
// twice with it: the first cached start keeps the provider's answer (each
// of them allows skipping GetProviderSchema), the second reads it without
// rewriting it, exports the same schema, and serves a create and a
// function call with a provider that was never asked for its schema.
func TestRealSchemaCache(t *testing.T) {
	tests := map[string]struct {
		tfType string
		inputs map[string]any
	}{
		"random": {"random_pet", map[string]any{"length": 2}},
		"time":   {"time_static", map[string]any{}},
		"tls":    {"tls_private_key", map[string]any{"algorithm": "ED25519"}},
		"local":  {"local_file", map[string]any{"content": "hi"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			bin, cache := realBinary(t, name), t.TempDir()
			ctx := context.Background()
			start := func(cacheDir string) (*Provider, provider.GetSchemaResponse) {
				t.Helper()
				p, err := Start(ctx, Config{Path: bin, Dir: t.TempDir(), SchemaCache: cacheDir})
				mustOK(t, "Start", err)
				t.Cleanup(func() { p.Close() })
				s, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
				mustOK(t, "GetSchema", err)
				return p, s
			}
			_, want := start("")
			start(cache)
			entries, _ := filepath.Glob(filepath.Join(cache, "v1", "*.pb"))
			if len(entries) != 1 {
				t.Fatalf("cache entries after the first cached start = %v, want one", entries)
			}
			before, err := os.Stat(entries[0])
			mustOK(t, "stat", err)
			p, got := start(cache)
			after, err := os.Stat(entries[0])
			mustOK(t, "stat", err)
			if !os.SameFile(before, after) {
				t.Errorf("the second cached start rewrote %s: it asked the provider instead of reading the cache", entries[0])
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cached schema differs from the provider's (-provider +cached):\n%s", diff)
			}
			_, err = p.Configure(ctx, provider.ConfigureRequest{})
			mustOK(t, "Configure", err)
			inputs := obj(tt.inputs)
			if tt.tfType == "local_file" {
				inputs = obj(map[string]any{"content": "hi", "filename": filepath.Join(t.TempDir(), "f")})
			}
			lifecycle{t, p, urn(tt.tfType, "x")}.create(inputs)
		})
	}
}
