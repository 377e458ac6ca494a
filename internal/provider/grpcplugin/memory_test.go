package grpcplugin_test

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// reaped runs a short process and returns its state once reaped.
func reaped(t *testing.T) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no /bin/true to run: %v", err)
	}
	return cmd.ProcessState
}

// TestRecordMemory: a reaped run is recorded under its binary's checksum
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
			ps := reaped(t)
			grpcplugin.RecordMemory(cache, tt.sum, tt.gc, ps)
			got, ok := grpcplugin.RecordedMemory(cache, sum)
			switch {
			case tt.want:
				want := grpcplugin.Memory{PeakRSS: grpcplugin.PeakRSS(ps), GOGC: tt.gc.GOGC}
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
