package program

import "testing"

// TestNormalizeFunction: Terraform data sources named like their provider
// (external, http) are function tokens; everything NormalizeType accepts
// still is.
func TestNormalizeFunction(t *testing.T) {
	tests := map[string]struct {
		token, pkg string
		bad        bool
	}{
		"external":       {token: "external:index:external", pkg: "external"},
		"http":           {token: "http:index:http", pkg: "http"},
		"local_file":     {token: "local:index:local_file", pkg: "local"},
		"plinth:fs:read": {token: "plinth:fs:read", pkg: "plinth"},
		"_x":             {bad: true},
		"not a function": {bad: true},
	}
	for in, tc := range tests {
		token, pkg, err := NormalizeFunction(in)
		if (err != nil) != tc.bad || token != tc.token || pkg != tc.pkg {
			t.Errorf("NormalizeFunction(%q) = %q, %q, %v; want %q, %q (error %v)", in, token, pkg, err, tc.token, tc.pkg, tc.bad)
		}
	}
}
