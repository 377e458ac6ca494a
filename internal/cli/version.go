package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/providers/plinth"
)

// Version is plinth's version.
const Version = "0.1.0-dev"

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print plinth's version",
		Args:  cobra.NoArgs,
		Run: func(*cobra.Command, []string) {
			fmt.Fprintf(a.env.Stdout, "plinth %s%s (%s, %s/%s; built-in provider %s %s)\n",
				Version, revision(), runtime.Version(), runtime.GOOS, runtime.GOARCH, plinth.Name, plinth.Version)
		},
	}
}

// revision is the VCS revision the binary was built from, if Go recorded
// it.
func revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return ""
	}
	if dirty {
		rev += "-dirty"
	}
	return " " + rev
}
