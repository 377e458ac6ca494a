package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/install"
	"github.com/plinth-iac/plinth/internal/plugin"
)

func (a *app) pluginCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "plugin",
		Short: "List the provider plugins plinth can use, and install Pulumi plugins",
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
	c.AddCommand(ls, a.pluginInstallCommand())
	return c
}

// pluginInstallCommand is `plinth plugin install resource NAME VERSION`,
// pulumi plugin install's counterpart.
func (a *app) pluginInstallCommand() *cobra.Command {
	var server string
	c := &cobra.Command{
		Use:   "install resource NAME VERSION",
		Short: "Install a Pulumi resource plugin into Pulumi's plugin cache",
		Long: "Install downloads pulumi-resource-NAME-vVERSION-OS-ARCH.tar.gz, as pulumi plugin install does,\n" +
			"from --server (a pluginDownloadURL; ${VERSION}, ${OS} and ${ARCH} in it are replaced), else\n" +
			"from PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES's URL for the name, else from Pulumi's GitHub\n" +
			"releases and get.pulumi.com, and unpacks it into $PULUMI_HOME/plugins (~/.pulumi/plugins)\n" +
			"as resource-NAME-vVERSION, where plinth and pulumi find it. Where the server publishes\n" +
			"pulumi-NAME_VERSION_checksums.txt, the tarball's SHA-256 must be listed there.",
		Args: cobra.ExactArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			spec := install.PluginSpec{Kind: args[0], Name: args[1], Version: args[2], Server: server}
			if _, err := a.pluginInstaller().Install(c.Context(), spec); err != nil {
				return display.Errorf("Failed to install plugin", "%s", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&server, "server", "", "the `URL` to download the plugin from (its pluginDownloadURL)")
	return c
}

// pluginInstaller installs Pulumi plugins into Pulumi's plugin cache,
// reporting on standard output.
func (a *app) pluginInstaller() *install.PluginInstaller {
	in := pluginInstaller(a.env.getenv, a.env.Stdout)
	if a.env.StdoutTerminal {
		in.Registry.Progress = progressBars(a.env.Stdout)
	}
	return in
}

// pluginInstaller installs into $PULUMI_HOME/plugins, else
// ~/.pulumi/plugins, honouring PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.
func pluginInstaller(getenv func(string) string, out io.Writer) *install.PluginInstaller {
	dir := ""
	if home := getenv("PULUMI_HOME"); home != "" {
		dir = filepath.Join(home, "plugins")
	} else if home := getenv("HOME"); home != "" {
		dir = filepath.Join(home, ".pulumi", "plugins")
	}
	return &install.PluginInstaller{Dir: dir, Out: out,
		Registry: &install.Registry{Offline: install.PulumiOffline}, Overrides: getenv("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES")}
}
