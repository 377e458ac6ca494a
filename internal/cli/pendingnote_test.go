package cli

import (
	"strings"
	"testing"
)

// TestChildrenNote: where a command plinth started may outlive it,
// `plinth state pending` says to check that it has ended before clearing
// a create; where the system ties commands to plinth, the advice to
// clear a create that was not made holds as it is, and nothing is added.
func TestChildrenNote(t *testing.T) {
	tests := map[string]struct {
		tied bool
		want []string
	}{
		"tied (Linux)": {tied: true},
		"not tied":     {tied: false, want: []string{"may still be running", "Before you clear a\npending create, check that none of its commands still runs"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := childrenNote(tt.tied)
			if len(tt.want) == 0 && got != "" {
				t.Errorf("childrenNote(%v) = %q, want nothing", tt.tied, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("childrenNote(%v) = %q, want it to say %q", tt.tied, got, w)
				}
			}
		})
	}
}
