package cli

import (
	"regexp"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestPathFlagsMarked: every flag that takes a file or directory is
// resolved against -C's directory: marked with pathAnnotation, or one
// of those the program or the backend already resolves against the
// project directory. A new path flag must say which it is.
func TestPathFlagsMarked(t *testing.T) {
	// The program reads --var-file and writes --generate-config-out
	// relative to the project directory; file: backends (--backend,
	// state migrate --to) are relative to it too; -C is the directory;
	// test --filter names test files relative to the project directory,
	// as terraform test -filter names them relative to the configuration.
	resolvedElsewhere := map[string]bool{"--var-file": true, "--generate-config-out": true, "--backend": true, "--to": true, "--cwd": true, "--filter": true}
	takesPath := regexp.MustCompile("(?i)`(file|directory|dir)`|file:")
	var unmarked []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			_, marked := f.Annotations[pathAnnotation]
			if takesPath.MatchString(f.Usage) && !marked && !resolvedElsewhere["--"+f.Name] {
				unmarked = append(unmarked, c.CommandPath()+" --"+f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk((&app{}).rootCommand())
	sort.Strings(unmarked)
	if diff := cmp.Diff([]string(nil), unmarked); diff != "" {
		t.Errorf("path flags neither marked with markPaths nor resolved elsewhere (-want +got):\n%s", diff)
	}
}
