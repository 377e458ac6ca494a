package grpcplugin_test

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// running starts a plugin-like process that sleeps, and stops it when
// the test ends.
func running(t *testing.T) *proc.Process {
	t.Helper()
	p, err := proc.Start(exec.Command("sleep", "60"))
	if err != nil {
		t.Skipf("no sleep to run: %v", err)
	}
	t.Cleanup(func() {
		_ = p.Kill()
		_ = p.Wait()
	})
	return p
}

// TestPeakRSSIsThePluginsOwn: the peak memory read for a plugin is its
// own, not its parent's. The rusage of a reaped child (what was read
// before) reports the parent's peak for a child that keeps next to
// nothing, because Go starts children sharing the parent's memory; with
// the test holding 256 MB, sleep was recorded as using 256 MB.
func TestPeakRSSIsThePluginsOwn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read on Linux only")
	}
	ballast := make([]byte, 256<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	p := running(t)
	peak := grpcplugin.PeakRSS(p)
	runtime.KeepAlive(ballast)
	if peak == 0 || peak > 64<<20 {
		t.Errorf("PeakRSS of sleep started by a process holding 256 MB = %d bytes, want its own few MB", peak)
	}
	_ = p.Kill()
	_ = p.Wait()
	if got := grpcplugin.PeakRSS(p); got != 0 {
		t.Errorf("PeakRSS of an exited process = %d, want 0 (unknown)", got)
	}
}

// TestRecordMemory: a run is recorded under its binary's checksum
// when its GOGC is known, and replaces only a record of a smaller run;
// CollectorFor reads the record back.
func TestRecordMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read on Linux only")
	}
	for _, k := range []string{"GOGC", "GOMEMLIMIT", grpcplugin.GOGCEnv} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	const sum = "0123"
	huge := grpcplugin.Memory{PeakRSS: 1 << 40, GOGC: 100}
	tests := map[string]struct {
		last    *grpcplugin.Memory
		sum     string
		gc      grpcplugin.Collector
		want    bool // a record from this run
		wantOld bool // the old record kept
	}{
		"first run":             {sum: sum, gc: grpcplugin.Collector{GOGC: 100}, want: true},
		"larger run is kept":    {sum: sum, gc: grpcplugin.Collector{GOGC: 100}, last: &huge, wantOld: true},
		"checksum unknown":      {gc: grpcplugin.Collector{GOGC: 100}},
		"the user's GOGC (0)":   {sum: sum},
		"raised GOGC is stored": {sum: sum, gc: grpcplugin.Collector{Env: "GOGC=400", GOGC: 400}, want: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			cache := schemacache.Cache{Dir: t.TempDir()}
			if tt.last != nil {
				cache.Put(grpcplugin.MemoryEntry(sum), tt.last.Encode())
			}
			peak := grpcplugin.PeakRSS(running(t))
			grpcplugin.RecordMemory(cache, tt.sum, tt.gc, peak)
			got, ok := grpcplugin.RecordedMemory(cache, sum)
			switch {
			case tt.want:
				want := grpcplugin.Memory{PeakRSS: peak, GOGC: tt.gc.GOGC}
				if diff := cmp.Diff(want, got); !ok || diff != "" {
					t.Errorf("record (ok %v) (-want +got):\n%s", ok, diff)
				}
			case tt.wantOld:
				if got != *tt.last {
					t.Errorf("record = %+v, want the larger run's %+v", got, *tt.last)
				}
			case ok:
				t.Errorf("recorded %+v, want nothing", got)
			}
			gc, err := grpcplugin.CollectorFor(cache, sum, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ok && got.PeakRSS < 16<<20 && gc.GOGC != grpcplugin.MaxGOGC {
				t.Errorf("CollectorFor after a run of %d bytes = %+v, want GOGC %d", got.PeakRSS, gc, grpcplugin.MaxGOGC)
			}
		})
	}
}

// TestMemoryKey: a plugin with arguments is recorded apart from its
// binary run without them, and apart from other arguments.
func TestMemoryKey(t *testing.T) {
	const sum = "0123"
	keys := map[string]string{
		"unknown binary": grpcplugin.MemoryKey("", []string{"a.js"}),
		"no arguments":   grpcplugin.MemoryKey(sum, nil),
		"a.js":           grpcplugin.MemoryKey(sum, []string{"a.js"}),
		"b.js":           grpcplugin.MemoryKey(sum, []string{"b.js"}),
		"a.js again":     grpcplugin.MemoryKey(sum, []string{"a.js"}),
	}
	if keys["unknown binary"] != "" || keys["no arguments"] != sum {
		t.Errorf("keys = %q, want none for an unknown binary and the checksum alone without arguments", keys)
	}
	if keys["a.js"] == keys["b.js"] || keys["a.js"] == sum || keys["a.js"] != keys["a.js again"] {
		t.Errorf("keys = %q, want one per argument list", keys)
	}
}

// TestCollectorEnviron: the setting is added to the configured
// environment, or to plinth's when there is none, and a setting without a
// variable leaves the environment alone.
func TestCollectorEnviron(t *testing.T) {
	t.Setenv("PLINTH_TEST_ENVIRON", "1")
	raised := grpcplugin.Collector{Env: "GOGC=400", GOGC: 400}
	if diff := cmp.Diff([]string{"A=1", "GOGC=400"}, raised.Environ([]string{"A=1"})); diff != "" {
		t.Errorf("Environ of a configured environment (-want +got):\n%s", diff)
	}
	own := raised.Environ(nil)
	if !slices.Contains(own, "PLINTH_TEST_ENVIRON=1") || own[len(own)-1] != "GOGC=400" {
		t.Errorf("Environ(nil) = %q, want plinth's environment and GOGC=400 last", own)
	}
	if got := (grpcplugin.Collector{GOGC: 100}).Environ(nil); got != nil {
		t.Errorf("Environ(nil) of Go's default = %q, want nil (plinth's own)", got)
	}
}
