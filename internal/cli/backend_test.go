package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProjectBackend: the backend key is found however plinth.yaml
// spells it, and a program that cannot name one (the common case,
// skipped without a parse) has none.
func TestProjectBackend(t *testing.T) {
	tests := map[string]struct {
		yaml string
		want string
	}{
		"none":            {yaml: "name: p\nresources:\n  a:\n    type: plinth:random:Pet\n", want: ""},
		"plain":           {yaml: "name: p\nbackend: file:state\n", want: "file:state"},
		"quoted key":      {yaml: "name: p\n\"backend\": postgres://db\n", want: "postgres://db"},
		"flow mapping":    {yaml: "{name: p, backend: file:x}\n", want: "file:x"},
		"hex escape":      {yaml: "name: p\n\"\\x62ackend\": file:esc\n", want: "file:esc"},
		"unicode escape":  {yaml: "name: p\n\"\\u0062ack\\u0065nd\": file:u\n", want: "file:u"},
		"nested only":     {yaml: "name: p\nconfig:\n  backend: file:nested\n", want: ""},
		"word in a value": {yaml: "name: p\ndescription: no backend here\n", want: ""},
		"not yaml":        {yaml: "backend: [unclosed\n", want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plinth.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := projectBackend(path); got != tc.want {
				t.Errorf("projectBackend(%q) = %q, want %q", tc.yaml, got, tc.want)
			}
		})
	}
}
