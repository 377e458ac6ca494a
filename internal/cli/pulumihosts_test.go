package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/langhost/golang"
	"github.com/plinth-iac/plinth/internal/langhost/nodejs"
)

// TestHosts: the runtimes the CLI runs are nodejs and go; a Go program
// is built under PLINTH_HOME when it is set; any other runtime is
// refused, naming the two.
func TestHosts(t *testing.T) {
	env := map[string]string{"PLINTH_HOME": "/home/u/plinth"}
	hs := hosts(func(k string) string { return env[k] })
	for runtime, want := range map[string]string{
		"nodejs": "*nodejs.Host",
		"go":     "*golang.Host",
		"python": `Pulumi.yaml: runtime "python" is not supported by plinth; the runtimes it runs are go, nodejs`,
	} {
		host, err := hs.For(&langhost.Project{File: "Pulumi.yaml", Runtime: runtime})
		got := ""
		switch h := host.(type) {
		case *nodejs.Host:
			got = "*nodejs.Host"
		case *golang.Host:
			got = "*golang.Host"
			if h.BuildDir != "/home/u/plinth/go-builds" {
				t.Errorf("Go programs are built in %q, want $PLINTH_HOME/go-builds", h.BuildDir)
			}
		default:
			got = fmt.Sprint(err)
		}
		if diff := cmp.Diff(want, strings.TrimSpace(got)); diff != "" {
			t.Errorf("runtime %s (-want +got):\n%s", runtime, diff)
		}
	}
	if h, _ := hosts(func(string) string { return "" }).For(&langhost.Project{Runtime: "go"}); h.(*golang.Host).BuildDir != "" {
		t.Errorf("without PLINTH_HOME, Go programs are built in %q, want the user cache (BuildDir empty)", h.(*golang.Host).BuildDir)
	}
}
