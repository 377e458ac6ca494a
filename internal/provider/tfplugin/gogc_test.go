package tfplugin

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// unsetEnv removes k from this process's environment for the test.
func unsetEnv(t *testing.T, k string) {
	t.Helper()
	t.Setenv(k, "") // restores the old value at the end
	os.Unsetenv(k)
}

// startForEnv starts the fake of r with extra environment, closes it,
// and returns the collector settings it saw.
func (r *cacheRig) startForEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	envLog := filepath.Join(t.TempDir(), "env")
	p, err := Start(context.Background(), Config{Path: r.bin, Dir: t.TempDir(), SchemaCache: r.cache,
		Env: append([]string{fakeModeEnv + "=" + modeCacheable, fakeEnvLogEnv + "=" + envLog}, extra...)})
	mustOK(t, "Start", err)
	_, err = p.Configure(context.Background(), provider.ConfigureRequest{})
	mustOK(t, "Configure", err)
	mustOK(t, "Close", p.Close())
	b, err := os.ReadFile(envLog)
	mustOK(t, "reading what the fake saw", err)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// memory is the Memory recorded for the rig's binary; ok is false if none.
func (r *cacheRig) memory(t *testing.T) (grpcplugin.Memory, bool) {
	c := schemacache.Cache{Dir: r.cache}
	return grpcplugin.RecordedMemory(c, c.Sum(r.bin))
}

// record writes m as the Memory of the rig's binary.
func (r *cacheRig) record(t *testing.T, m grpcplugin.Memory) {
	c := schemacache.Cache{Dir: r.cache}
	c.Put(grpcplugin.MemoryEntry(c.Sum(r.bin)), m.Encode())
}

// small and large are recorded runs of a provider that kept a few MB
// and one that kept 600 MB.
var (
	small = grpcplugin.Memory{PeakRSS: 20 << 20, GOGC: 100}
	large = grpcplugin.Memory{PeakRSS: 1200 << 20, GOGC: 100}
)

// TestProviderGOGC: the GOGC plinth gives a provider it starts comes from
// the memory its binary's largest run used; the user's GOGC or GOMEMLIMIT
// is kept; PLINTH_PLUGIN_GOGC=off leaves Go's default.
func TestProviderGOGC(t *testing.T) {
	unset := []string{"GOGC unset", "GOMEMLIMIT unset"}
	raised := []string{"GOGC=400", "GOMEMLIMIT unset"}
	tests := map[string]struct {
		last    *grpcplugin.Memory // recorded before the start
		environ []string           // plinth's environment
		extra   []string           // the adapter's (Config.Env)
		want    []string
	}{
		"first run of a binary keeps the default": {want: unset},
		"small provider gets a higher GOGC":       {last: &small, want: raised},
		"large provider keeps the default":        {last: &large, want: unset},
		"user's GOGC is kept":                     {last: &small, environ: []string{"GOGC=50"}, want: []string{"GOGC=50", "GOMEMLIMIT unset"}},
		"GOGC in the config is kept":              {last: &small, extra: []string{"GOGC=75"}, want: []string{"GOGC=75", "GOMEMLIMIT unset"}},
		"user's GOMEMLIMIT is kept alone": {last: &small, environ: []string{"GOMEMLIMIT=1GiB"},
			want: []string{"GOGC unset", "GOMEMLIMIT=1GiB"}},
		"off keeps the default": {last: &small, environ: []string{grpcplugin.GOGCEnv + "=off"}, want: unset},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			for _, k := range []string{"GOGC", "GOMEMLIMIT", grpcplugin.GOGCEnv} {
				unsetEnv(t, k)
			}
			for _, kv := range tt.environ {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			r := newCacheRig(t)
			if tt.last != nil {
				r.record(t, *tt.last)
			}
			got := r.startForEnv(t, tt.extra...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("collector settings the provider saw (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProviderGOGCRecord: a start records the provider's peak memory when
// plinth knows its GOGC, keeps the record of a larger run, and records
// nothing when the user chose the GOGC.
func TestProviderGOGCRecord(t *testing.T) {
	for _, k := range []string{"GOGC", "GOMEMLIMIT", grpcplugin.GOGCEnv} {
		unsetEnv(t, k)
	}
	r := newCacheRig(t)
	r.startForEnv(t, "GOGC=100")
	if m, ok := r.memory(t); ok {
		t.Fatalf("a run with the user's GOGC recorded %+v, want nothing", m)
	}
	r.startForEnv(t)
	first, ok := r.memory(t)
	if !ok || first.GOGC != 100 || first.PeakRSS < 1<<20 {
		t.Fatalf("first run recorded %+v (ok %v), want a peak of at least 1 MiB at GOGC 100", first, ok)
	}
	r.record(t, large)
	r.startForEnv(t)
	if m, _ := r.memory(t); m != large {
		t.Errorf("after a smaller run the record is %+v, want the larger run's %+v", m, large)
	}
}

// TestProviderGOGCInvalid: an unknown PLINTH_PLUGIN_GOGC is an error that
// names the variable and the values it takes.
func TestProviderGOGCInvalid(t *testing.T) {
	t.Setenv(grpcplugin.GOGCEnv, "sometimes")
	r := newCacheRig(t)
	_, err := Start(context.Background(), Config{Path: r.bin, Dir: t.TempDir(), SchemaCache: r.cache,
		Env: []string{fakeModeEnv + "=" + modeCacheable}})
	if err == nil || !strings.Contains(err.Error(), `PLINTH_PLUGIN_GOGC="sometimes": use auto`) {
		t.Fatalf("Start error = %v, want one naming PLINTH_PLUGIN_GOGC and its values", err)
	}
}

// TestFailedStartLeavesNothingRunning: a Start that fails after it began
// hashing the binary for the schema cache returns only once that is done,
// so nothing of it writes to the cache afterwards (a test's temporary
// directory was once removed while the hash's record was being written).
func TestFailedStartLeavesNothingRunning(t *testing.T) {
	t.Setenv(grpcplugin.GOGCEnv, "sometimes")
	r := newCacheRig(t)
	_, err := Start(context.Background(), Config{Path: r.bin, Dir: t.TempDir(), SchemaCache: r.cache})
	if err == nil {
		t.Fatal("Start succeeded with an invalid PLINTH_PLUGIN_GOGC")
	}
	var files []string
	walkErr := filepath.WalkDir(r.cache, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if walkErr != nil || len(files) == 0 {
		t.Fatalf("the binary's checksum was not recorded by the time Start returned (files %v, %v): the hash still runs after Start", files, walkErr)
	}
}
