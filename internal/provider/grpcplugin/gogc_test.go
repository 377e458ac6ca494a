package grpcplugin_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

func TestChooseGOGC(t *testing.T) {
	const mib = 1 << 20
	tests := map[string]struct {
		getenv  map[string]string
		environ []string
		extra   []string
		last    *grpcplugin.Memory
		want    grpcplugin.Collector
		wantErr string
	}{
		"no record: Go's default": {want: grpcplugin.Collector{GOGC: 100}},
		// random in a 2,000-resource create: 58 MB at GOGC 100.
		"provider that kept 28 MiB": {last: &grpcplugin.Memory{PeakRSS: 56 * mib, GOGC: 100},
			want: grpcplugin.Collector{Env: "GOGC=328", GOGC: 328}},
		"record made at a raised GOGC": {last: &grpcplugin.Memory{PeakRSS: 70 * mib, GOGC: 400},
			want: grpcplugin.Collector{Env: "GOGC=400", GOGC: 400}},
		"tiny provider is capped": {last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{Env: "GOGC=400", GOGC: 400}},
		// aws keeps hundreds of MB: the default, not five times its heap.
		"provider that kept 300 MiB": {last: &grpcplugin.Memory{PeakRSS: 600 * mib, GOGC: 100},
			want: grpcplugin.Collector{GOGC: 100}},
		"provider that kept 100 MiB": {last: &grpcplugin.Memory{PeakRSS: 200 * mib, GOGC: 100},
			want: grpcplugin.Collector{Env: "GOGC=164", GOGC: 164}},
		"user's GOGC": {environ: []string{"HOME=/h", "GOGC=50"}, last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{}},
		"GOGC in the adapter's environment": {extra: []string{"GOGC=off"}, last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{}},
		"user's GOMEMLIMIT": {environ: []string{"GOMEMLIMIT=2GiB"}, last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{}},
		"auto": {getenv: map[string]string{grpcplugin.GOGCEnv: "auto"}, last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{Env: "GOGC=400", GOGC: 400}},
		"off": {getenv: map[string]string{grpcplugin.GOGCEnv: "off"}, last: &grpcplugin.Memory{PeakRSS: 8 * mib, GOGC: 100},
			want: grpcplugin.Collector{GOGC: 100}},
		"off with the user's GOGC": {getenv: map[string]string{grpcplugin.GOGCEnv: "off"}, environ: []string{"GOGC=200"},
			want: grpcplugin.Collector{}},
		"invalid": {getenv: map[string]string{grpcplugin.GOGCEnv: "400"},
			wantErr: `PLINTH_PLUGIN_GOGC="400": use auto (plinth chooses the GOGC of the plugins it starts) or off (Go's default)`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var last grpcplugin.Memory
			if tt.last != nil {
				last = *tt.last
			}
			got, err := grpcplugin.ChooseGOGC(func(k string) string { return tt.getenv[k] }, tt.environ, tt.extra, last, tt.last != nil)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ChooseGOGC (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMemoryRecord(t *testing.T) {
	m := grpcplugin.Memory{PeakRSS: 58261504, GOGC: 215}
	got, ok := grpcplugin.ParseMemory(m.Encode())
	if !ok || got != m {
		t.Errorf("ParseMemory(Encode(%+v)) = %+v, %v", m, got, ok)
	}
	for _, bad := range []string{"", "peak_rss=0 gogc=100\n", "peak_rss=5 gogc=0\n", "peak_rss=x gogc=1\n", strings.Repeat("\x00", 8)} {
		if got, ok := grpcplugin.ParseMemory([]byte(bad)); ok {
			t.Errorf("ParseMemory(%q) = %+v, want a miss", bad, got)
		}
	}
}

func TestLarger(t *testing.T) {
	small := grpcplugin.Memory{PeakRSS: 60 << 20, GOGC: 400} // kept 12 MiB
	big := grpcplugin.Memory{PeakRSS: 40 << 20, GOGC: 100}   // kept 20 MiB
	tests := map[string]struct {
		last grpcplugin.Memory
		ok   bool
		run  grpcplugin.Memory
		want grpcplugin.Memory
	}{
		"no record":               {run: small, want: small},
		"larger run replaces":     {last: small, ok: true, run: big, want: big},
		"smaller run is not kept": {last: big, ok: true, run: small, want: big},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, grpcplugin.Larger(tt.last, tt.ok, tt.run)); diff != "" {
				t.Errorf("Larger (-want +got):\n%s", diff)
			}
		})
	}
}
