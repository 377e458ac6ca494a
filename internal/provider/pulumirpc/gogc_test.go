package pulumirpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// gcRig is the fault plugin with a schema cache of its own.
type gcRig struct {
	cache schemacache.Cache
}

func newGCRig(t *testing.T) gcRig {
	t.Helper()
	for _, k := range []string{"GOGC", "GOMEMLIMIT", grpcplugin.GOGCEnv} {
		t.Setenv(k, "") // restores the old value at the end
		os.Unsetenv(k)
	}
	return gcRig{cache: schemacache.Cache{Dir: filepath.Join(t.TempDir(), "cache")}}
}

// record writes m as the Memory of the fault plugin run with args.
func (r gcRig) record(m grpcplugin.Memory, args ...string) {
	r.cache.Put(grpcplugin.MemoryEntry(grpcplugin.MemoryKey(r.cache.Sum(faultPlugin), args)), m.Encode())
}

// memory is the Memory recorded for the fault plugin run without
// arguments; ok is false if none.
func (r gcRig) memory() (grpcplugin.Memory, bool) {
	return grpcplugin.RecordedMemory(r.cache, r.cache.Sum(faultPlugin))
}

// launch starts the plugin with args and extra environment after
// plinth's (or, with own, in plinth's environment only), asks for its
// schema, closes it, and returns the collector settings it saw.
func (r gcRig) launch(t *testing.T, own bool, args []string, extra ...string) []string {
	t.Helper()
	envLog := filepath.Join(t.TempDir(), "env")
	cfg := faultConfig("", &logSink{})
	cfg.SchemaCache, cfg.Args = r.cache.Dir, args
	cfg.Env = append(cfg.Env, append([]string{"PLINTH_FAULT_ENV_LOG=" + envLog}, extra...)...)
	if own {
		t.Setenv("PLINTH_FAULT_ENV_LOG", envLog)
		cfg.Env = nil
	}
	p, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(envLog)
	if err != nil {
		t.Fatalf("reading what the plugin saw: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// Recorded runs of a plugin that kept a few MB and one that kept 600 MB.
var (
	smallRun = grpcplugin.Memory{PeakRSS: 20 << 20, GOGC: 100}
	largeRun = grpcplugin.Memory{PeakRSS: 1200 << 20, GOGC: 100}
)

// TestPluginGOGC: the GOGC plinth gives a Pulumi-protocol plugin comes
// from the memory its binary's largest run used; the user's GOGC or
// GOMEMLIMIT is kept; PLINTH_PLUGIN_GOGC=off leaves Go's default.
func TestPluginGOGC(t *testing.T) {
	unset := []string{"GOGC unset", "GOMEMLIMIT unset"}
	raised := []string{"GOGC=400", "GOMEMLIMIT unset"}
	tests := map[string]struct {
		last     *grpcplugin.Memory // recorded before the start
		lastArgs []string           // the arguments of the recorded run
		args     []string           // the plugin's (Config.Args)
		environ  []string           // plinth's environment
		extra    []string           // added to Config.Env
		own      bool               // Config.Env nil: plinth's environment
		want     []string
	}{
		"first run of a binary keeps the default": {want: unset},
		"small plugin gets a higher GOGC":         {last: &smallRun, want: raised},
		"in plinth's own environment too":         {last: &smallRun, own: true, want: raised},
		"large plugin keeps the default":          {last: &largeRun, want: unset},
		"record of other arguments is not used":   {last: &smallRun, args: []string{"script.js"}, want: unset},
		"record of the same arguments is used": {last: &smallRun, lastArgs: []string{"script.js"}, args: []string{"script.js"},
			want: raised},
		"user's GOGC is kept":        {last: &smallRun, environ: []string{"GOGC=50"}, want: []string{"GOGC=50", "GOMEMLIMIT unset"}},
		"GOGC in the config is kept": {last: &smallRun, extra: []string{"GOGC=75"}, want: []string{"GOGC=75", "GOMEMLIMIT unset"}},
		"user's GOMEMLIMIT is kept alone": {last: &smallRun, environ: []string{"GOMEMLIMIT=1GiB"},
			want: []string{"GOGC unset", "GOMEMLIMIT=1GiB"}},
		"off keeps the default":      {last: &smallRun, environ: []string{grpcplugin.GOGCEnv + "=off"}, want: unset},
		"auto is the default choice": {last: &smallRun, environ: []string{grpcplugin.GOGCEnv + "=auto"}, want: raised},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := newGCRig(t)
			for _, kv := range tt.environ {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			if tt.last != nil {
				r.record(*tt.last, tt.lastArgs...)
			}
			got := r.launch(t, tt.own, tt.args, tt.extra...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("collector settings the plugin saw (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPluginGOGCRecord: closing a plugin records its peak memory when
// plinth knows its GOGC, also on the first run of a binary (whose checksum
// GetSchema learns), so the next start raises its GOGC; it keeps the
// record of a larger run, and records nothing when the user chose the
// GOGC.
func TestPluginGOGCRecord(t *testing.T) {
	r := newGCRig(t)
	r.launch(t, false, nil, "GOGC=100")
	if m, ok := r.memory(); ok {
		t.Fatalf("a run with the user's GOGC recorded %+v, want nothing", m)
	}
	os.RemoveAll(r.cache.Dir) // a first run: the binary's checksum unknown
	if got := r.launch(t, false, nil); got[0] != "GOGC unset" {
		t.Fatalf("first run saw %q, want Go's default", got)
	}
	first, ok := r.memory()
	if !ok || first.GOGC != 100 || first.PeakRSS < 1<<20 {
		t.Fatalf("first run recorded %+v (ok %v), want a peak of at least 1 MiB at GOGC 100", first, ok)
	}
	want, err := grpcplugin.CollectorFor(r.cache, r.cache.Sum(faultPlugin), nil)
	if err != nil || want.Env == "" {
		t.Fatalf("the first run's record %+v gives %+v (%v), want a raised GOGC", first, want, err)
	}
	if got := r.launch(t, false, nil); got[0] != want.Env {
		t.Errorf("after a small first run the plugin saw %q, want %s", got, want.Env)
	}
	r.record(largeRun)
	r.launch(t, false, nil)
	if m, _ := r.memory(); m != largeRun {
		t.Errorf("after a smaller run the record is %+v, want the larger run's %+v", m, largeRun)
	}
}

// TestPluginGOGCInvalid: an unknown PLINTH_PLUGIN_GOGC is an error that
// names the plugin, the variable and the values it takes.
func TestPluginGOGCInvalid(t *testing.T) {
	r := newGCRig(t)
	t.Setenv(grpcplugin.GOGCEnv, "sometimes")
	cfg := faultConfig("", &logSink{})
	cfg.SchemaCache = r.cache.Dir
	_, err := Launch(context.Background(), cfg)
	want := `starting provider fault (` + faultPlugin + `): PLINTH_PLUGIN_GOGC="sometimes": use auto`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Launch error = %v, want one containing %q", err, want)
	}
}
