package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaCacheDir(t *testing.T) {
	userCache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no user cache directory: %v", err)
	}
	tests := map[string]struct {
		env  map[string]string
		want string
	}{
		"default":     {nil, filepath.Join(userCache, "plinth", "schemas")},
		"plinth home": {map[string]string{"PLINTH_HOME": "/h"}, filepath.Join("/h", "schemas")},
		"explicit":    {map[string]string{"PLINTH_SCHEMA_CACHE": "/c", "PLINTH_HOME": "/h"}, "/c"},
		"off":         {map[string]string{"PLINTH_SCHEMA_CACHE": "off", "PLINTH_HOME": "/h"}, ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := schemaCacheDir(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("schemaCacheDir (-want +got):\n%s", diff)
			}
		})
	}
}
