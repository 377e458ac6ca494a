package cli

import (
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pathAnnotation marks a flag whose value is a path on the command line's
// side (a file plinth reads or writes: --save-plan, --plan, state
// export/import --file, --previous). Before a command runs, a relative
// one is resolved against -C's directory.
const pathAnnotation = "plinth-path"

// markPaths marks the named flags of c as paths (see pathAnnotation).
func markPaths(c *cobra.Command, names ...string) {
	for _, n := range names {
		if err := c.Flags().SetAnnotation(n, pathAnnotation, []string{"true"}); err != nil {
			panic("cli: markPaths: " + err.Error()) // a flag renamed without its mark
		}
	}
}

// resolvePathFlags resolves the path flags c was given (see path).
func (a *app) resolvePathFlags(c *cobra.Command) error {
	var err error
	c.Flags().Visit(func(f *pflag.Flag) {
		if _, ok := f.Annotations[pathAnnotation]; ok && err == nil {
			err = f.Value.Set(a.path(f.Value.String()))
		}
	})
	return err
}

// path resolves a path given on the command line, an argument or a
// flag's value, as if plinth had been started in the -C directory, as
// git's -C, terraform's -chdir and pulumi's --cwd do: a relative path is
// taken relative to that directory. "-" (standard input or output) is
// left alone. Paths the program reads (--var-file, --generate-config-out)
// and file: backends resolve against the project directory already,
// which is the same directory.
func (a *app) path(p string) string {
	if p == "" || p == "-" || a.g.dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.g.dir, p)
}
