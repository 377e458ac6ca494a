package program

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

func TestNormalizeType(t *testing.T) {
	tests := map[string]struct {
		token, pkg string
		bad        bool
	}{
		"plinth:random:Pet":       {token: "plinth:random:Pet", pkg: "plinth"},
		"plinth:Pet":              {token: "plinth:Pet", pkg: "plinth"},
		"aws:s3/bucket:Bucket":    {token: "aws:s3/bucket:Bucket", pkg: "aws"},
		"pulumi:providers:random": {token: "pulumi:providers:random", pkg: "random"},
		"random_pet":              {token: "random:index:random_pet", pkg: "random"},
		"local_file":              {token: "local:index:local_file", pkg: "local"},
		"google_compute_instance": {token: "google:index:google_compute_instance", pkg: "google"},
		"random":                  {bad: true},
		"random_":                 {bad: true},
		"_pet":                    {bad: true},
		"a:b:c:d":                 {bad: true},
		"plinth::Pet":             {bad: true},
		"pulumi:providers:":       {bad: true},
		"not a type":              {bad: true},
	}
	for in, tt := range tests {
		t.Run(in, func(t *testing.T) {
			token, pkg, err := NormalizeType(in)
			if tt.bad {
				if err == nil {
					t.Fatalf("NormalizeType(%q) = %q, %q; want an error", in, token, pkg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([2]string{tt.token, tt.pkg}, [2]string{token, pkg}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
