package pulumirpc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
)

// TestSchemaCache counts the plugin's GetSchema calls over three launches
// and GetSchema each: with a cache only the first asks the plugin, and the
// schema read from the cache is the plugin's; a damaged entry is asked
// for again; without a cache every launch asks.
func TestSchemaCache(t *testing.T) {
	tests := map[string]struct {
		cache  bool
		damage bool // damage the entry after the first launch
		want   int
	}{
		"cached":        {cache: true, want: 1},
		"damaged entry": {cache: true, damage: true, want: 2},
		"no cache":      {cache: false, want: 3},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "calls")
			cfg := faultConfig("", &logSink{})
			cfg.Env = append(cfg.Env, "PLINTH_FAULT_SCHEMA_LOG="+log)
			if tt.cache {
				cfg.SchemaCache = filepath.Join(dir, "cache")
			}
			var first provider.GetSchemaResponse
			for i := 0; i < 3; i++ {
				p, err := Launch(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
				p.Close()
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = got
				} else if diff := cmp.Diff(first, got); diff != "" {
					t.Errorf("launch %d: schema differs from the first (-first +got):\n%s", i+1, diff)
				}
				if i == 0 && tt.damage {
					entries, _ := filepath.Glob(filepath.Join(cfg.SchemaCache, "v1", "*"))
					for _, e := range entries {
						if err := os.WriteFile(e, []byte("not a schema"), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			b, _ := os.ReadFile(log)
			if n := strings.Count(string(b), "\n"); n != tt.want {
				t.Errorf("plugin asked for its schema %d times, want %d", n, tt.want)
			}
		})
	}
}
