package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/plugin"
)

func (a *app) pluginCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "plugin",
		Short: "List the provider plugins plinth can use",
		Args:  cobra.NoArgs,
	}
	var probe bool
	ls := &cobra.Command{
		Use:   "ls",
		Short: "List built-in providers and the plugins found on disk",
		Long: "Ls lists the providers built into plinth and the Pulumi-protocol and Terraform plugins\n" +
			"found in the project's .plinth/plugins, PLINTH_PLUGIN_PATH, ~/.plinth/plugins, Pulumi's\n" +
			"plugin cache, the project's .terraform/providers, TF_PLUGIN_CACHE_DIR and\n" +
			"~/.terraform.d/plugins, in the order plinth searches them.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ws, err := a.workspace()
			if err != nil {
				return err
			}
			src := providerSource(ws.dir, a.env.getenv, a.env.Stderr, a.g.verbose)
			tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tKIND\tVERSION\tPROTOCOL\tFROM\tPATH")
			for name, b := range src.Builtins {
				fmt.Fprintf(tw, "%s\tresource\t%s\t%s\t%s\t%s\n", name, b.Version, plugin.ProtocolBuiltin, plugin.OriginBuiltin, "-")
			}
			for _, p := range src.Finder.List(c.Context(), probe) {
				v := p.Version
				if v == "" {
					v = "?"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Kind, v, p.Protocol, p.Origin, p.Path)
			}
			return tw.Flush()
		},
	}
	ls.Flags().BoolVar(&probe, "probe", false, "start Pulumi plugins whose file name gives no version to ask them")
	c.AddCommand(ls)
	return c
}
