package mu_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/internal/provider/mu"
)

// gcRig is the store plugin with a schema cache of its own.
type gcRig struct {
	bin   string
	cache schemacache.Cache
}

func newGCRig(t *testing.T) gcRig {
	t.Helper()
	for _, k := range []string{"GOGC", "GOMEMLIMIT", grpcplugin.GOGCEnv} {
		t.Setenv(k, "") // restores the old value at the end
		os.Unsetenv(k)
	}
	return gcRig{bin: filepath.Join(pluginDir, "mu-resource-store"), cache: schemacache.Cache{Dir: filepath.Join(t.TempDir(), "cache")}}
}

// record writes m as the Memory of the plugin run without arguments.
func (r gcRig) record(m grpcplugin.Memory) {
	r.cache.Put(grpcplugin.MemoryEntry(r.cache.Sum(r.bin)), m.Encode())
}

// memory is the Memory recorded for the plugin; ok is false if none.
func (r gcRig) memory() (grpcplugin.Memory, bool) {
	return grpcplugin.RecordedMemory(r.cache, r.cache.Sum(r.bin))
}

// launch starts the plugin with extra environment after plinth's, closes
// it, and returns the collector settings it saw.
func (r gcRig) launch(t *testing.T, extra ...string) []string {
	t.Helper()
	envLog := filepath.Join(t.TempDir(), "env")
	p, err := mu.Launch(context.Background(), mu.Config{Name: "store", Path: r.bin, Dir: t.TempDir(), SchemaCache: r.cache.Dir,
		Env: append(os.Environ(), append([]string{"PLINTH_MU_ENV_LOG=" + envLog}, extra...)...)})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(envLog)
	if err != nil {
		t.Fatalf("reading what the plugin saw: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestPluginGOGC: a Mu plugin's GOGC comes from the memory its binary's
// largest run used, as a Terraform provider's; the user's GOGC is kept;
// PLINTH_PLUGIN_GOGC=off leaves Go's default.
func TestPluginGOGC(t *testing.T) {
	unset := []string{"GOGC unset", "GOMEMLIMIT unset"}
	small := grpcplugin.Memory{PeakRSS: 20 << 20, GOGC: 100}
	large := grpcplugin.Memory{PeakRSS: 1200 << 20, GOGC: 100}
	tests := map[string]struct {
		last    *grpcplugin.Memory
		environ []string
		extra   []string
		want    []string
	}{
		"first run of a binary keeps the default": {want: unset},
		"small plugin gets a higher GOGC":         {last: &small, want: []string{"GOGC=400", "GOMEMLIMIT unset"}},
		"large plugin keeps the default":          {last: &large, want: unset},
		"user's GOGC is kept":                     {last: &small, environ: []string{"GOGC=50"}, want: []string{"GOGC=50", "GOMEMLIMIT unset"}},
		"GOMEMLIMIT in the config is kept alone": {last: &small, extra: []string{"GOMEMLIMIT=1GiB"},
			want: []string{"GOGC unset", "GOMEMLIMIT=1GiB"}},
		"off keeps the default": {last: &small, environ: []string{grpcplugin.GOGCEnv + "=off"}, want: unset},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := newGCRig(t)
			for _, kv := range tt.environ {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			if tt.last != nil {
				r.record(*tt.last)
			}
			if diff := cmp.Diff(tt.want, r.launch(t, tt.extra...)); diff != "" {
				t.Errorf("collector settings the plugin saw (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPluginGOGCRecord: the first run of a binary (hashed while it
// starts) records its peak memory, and the next start uses it.
func TestPluginGOGCRecord(t *testing.T) {
	r := newGCRig(t)
	if got := r.launch(t); got[0] != "GOGC unset" {
		t.Fatalf("first run saw %q, want Go's default", got)
	}
	first, ok := r.memory()
	if !ok || first.GOGC != 100 || first.PeakRSS < 1<<20 {
		t.Fatalf("first run recorded %+v (ok %v), want a peak of at least 1 MiB at GOGC 100", first, ok)
	}
	want, err := grpcplugin.CollectorFor(r.cache, r.cache.Sum(r.bin), nil)
	if err != nil || want.Env == "" {
		t.Fatalf("the first run's record %+v gives %+v (%v), want a raised GOGC", first, want, err)
	}
	if got := r.launch(t); got[0] != want.Env {
		t.Errorf("after a small first run the plugin saw %q, want %s", got, want.Env)
	}
}
