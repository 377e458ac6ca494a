//go:build unix

package sdkpulumi_test

import (
	"strings"
	"testing"
)

// TestValidationNamesThePath runs previews of programs that break the
// example's validate tags: each fails, and the failure names the
// property's path (nested ones too) and what is wrong.
func TestValidationNamesThePath(t *testing.T) {
	tests := map[string]struct {
		old, new string
		want     []string
	}{
		"nested port out of range": {old: "port: 8080", new: "port: 0",
			want: []string{"listener.port", "must be at least 1, got 0"}},
		"nested protocol not one of": {old: "port: 8080", new: "port: 8080\n        protocol: sctp",
			want: []string{"listener.protocol", "sctp"}},
		"name does not match": {old: "name: web", new: "name: Web_1",
			want: []string{"name", "Web_1"}},
		"write-only password too short": {old: "fn::secret: hunter2-hunter2", new: "fn::secret: short",
			want: []string{"adminPassword"}},
		"an element of a set of objects": {old: "- port: 443", new: "- port: 0",
			want: []string{"allow[0].port", "must be at least 1, got 0"}},
		"an element of a set twice": {old: "- port: 443", new: "- port: 80\n          protocol: udp\n        - port: 443",
			want: []string{"allow[2]", "is also element 0; a set holds each value once"}},
		"too many zones": {old: "zones: [b, a]", new: "zones: [a, b, c, d]",
			want: []string{"zones"}},
	}
	s := newStack(t, "server")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s.t = t
			s.edit(tc.old, tc.new)
			defer s.edit(tc.new, tc.old)
			out, errOut, err := s.try("preview")
			if err == nil {
				t.Fatalf("the preview succeeded:\n%s", out)
			}
			all := out + errOut
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("the failure does not say %q:\n%s", w, all)
				}
			}
		})
	}
}
