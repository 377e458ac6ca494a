package cli

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/install"
	"github.com/plinth-iac/plinth/internal/install/lock"
	"github.com/plinth-iac/plinth/internal/program/hcl"
)

// initCommand is `plinth init`: terraform init without backends. It
// installs the modules a Terraform configuration calls into
// .terraform/modules (writing modules.json) and the providers it
// requires from their registries into .terraform/providers, and writes
// .terraform.lock.hcl.
func (a *app) initCommand() *cobra.Command {
	var upgrade bool
	c := &cobra.Command{
		Use:   "init",
		Short: "Install the modules and providers a Terraform configuration requires",
		Long: "Init installs the modules the configuration's module blocks call (registry modules, git::\n" +
			"sources with ?ref= and //subdir, http(s) archives; local paths are only recorded) into\n" +
			".terraform/modules, writing modules.json as terraform does. It then reads the\n" +
			"required_providers of the configuration and all its modules,\n" +
			"chooses for each provider the version the dependency lock file .terraform.lock.hcl names\n" +
			"(with --upgrade, or when it names none, the newest the constraints allow), downloads it\n" +
			"from its registry, checks its signature and hashes as terraform does, unpacks it into\n" +
			".terraform/providers and writes the lock file as terraform writes it. The registry's\n" +
			"certificate is checked against the system's CAs, or SSL_CERT_FILE's; host blocks of the\n" +
			"CLI configuration (TF_CLI_CONFIG_FILE, else ~/.terraformrc) name a host's services; a\n" +
			"TF_TOKEN_<host> variable or a credentials block gives a private registry's token. With a\n" +
			"plugin cache (TF_PLUGIN_CACHE_DIR or plugin_cache_dir) packages are unpacked there and\n" +
			"linked into .terraform/providers.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return a.runInit(c, upgrade) },
	}
	c.Flags().BoolVar(&upgrade, "upgrade", false, "choose the newest versions the constraints allow, ignoring the versions the lock file names")
	return c
}

func (a *app) runInit(c *cobra.Command, upgrade bool) error {
	dir, err := a.initDir()
	if err != nil {
		return err
	}
	conf, err := install.ReadCLIConfig(install.CLIConfigPath(a.env.getenv))
	if err != nil {
		return display.Errorf("Invalid CLI configuration", "%s", err)
	}
	reg, err := a.registry(conf)
	if err != nil {
		return err
	}
	out := a.env.Stdout
	if err := a.installModules(c, dir, reg, upgrade); err != nil {
		return err
	}
	if _, err := hcl.Load(dir); err != nil {
		return err
	}
	reqs, err := install.Requirements(dir, hcl.Files)
	if err != nil {
		return display.Errorf("Invalid configuration", "%s", err)
	}
	lockPath := filepath.Join(dir, lock.FileName)
	old, err := lock.Read(lockPath)
	if err != nil {
		return display.Errorf("Invalid dependency lock file", "%s", err)
	}
	fmt.Fprintln(out, "Initializing provider plugins...")
	warnDevOverrides(a.env.Stderr, conf.Installation.DevOverrides, "Skip plinth init when using provider development overrides: they need nothing installed.")
	in := &install.Installer{Dir: dir, Registry: reg, Upgrade: upgrade, Out: out, CacheDir: a.pluginCache(conf),
		Installation: conf.Installation, ImpliedMirrors: install.ImpliedMirrorDirs(dir, a.env.getenv)}
	next, err := in.Install(c.Context(), reqs, old)
	if err != nil {
		return display.Errorf("Failed to install provider", "%s", err)
	}
	if err := writeLock(out, lockPath, old, next); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nPlinth has been successfully initialized!")
	return nil
}

// installModules installs the modules the configuration calls into
// .terraform/modules and writes modules.json, printing what it does as
// terraform does.
func (a *app) installModules(c *cobra.Command, dir string, reg *install.Registry, upgrade bool) error {
	if !install.HasModuleCalls(dir, hcl.Files) {
		return nil
	}
	out := a.env.Stdout
	if upgrade {
		fmt.Fprintln(out, "Upgrading modules...")
	} else {
		fmt.Fprintln(out, "Initializing modules...")
	}
	mi := &install.ModuleInstaller{Dir: dir, Registry: reg, Files: hcl.Files, Upgrade: upgrade, Out: out}
	if err := mi.Install(c.Context()); err != nil {
		return display.Errorf("Failed to install module", "%s. Nothing was installed; fix the module block, or the repository or registry it names, and run plinth init again.", err)
	}
	return nil
}

// pluginCache is TF_PLUGIN_CACHE_DIR, else the CLI configuration's
// plugin_cache_dir with its $VARIABLES expanded; "" for none.
func (a *app) pluginCache(conf install.CLIConfig) string {
	if d := a.env.getenv("TF_PLUGIN_CACHE_DIR"); d != "" {
		return d
	}
	return os.Expand(conf.PluginCacheDir, a.env.getenv)
}

// initDir is -C's directory, which must hold a Terraform configuration.
func (a *app) initDir() (string, error) {
	arg := a.g.dir
	if arg == "" {
		arg = "."
	}
	dir, err := filepath.Abs(arg)
	if err != nil {
		return "", fmt.Errorf("finding the configuration directory %s: %w", arg, err)
	}
	if !hcl.IsConfig(dir) {
		return "", display.Errorf("No Terraform configuration", "%s holds no .tf files. plinth init installs the providers of a Terraform configuration; run it in the configuration's directory, or pass it with -C DIR.", arg)
	}
	return dir, nil
}

// writeLock writes the lock file if it changed, saying so as terraform
// does.
func writeLock(out io.Writer, path string, old, next *lock.File) error {
	_, statErr := os.Stat(path)
	if statErr == nil && string(old.Bytes()) == string(next.Bytes()) {
		return nil
	}
	if err := next.Write(path); err != nil {
		return display.Errorf("Failed to write the dependency lock file", "%s", err)
	}
	if statErr != nil {
		fmt.Fprintf(out, "\nPlinth has created a lock file %s to record the provider\nselections it made above. Include this file in your version control repository\nso that plinth and terraform can guarantee to make the same selections by\ndefault when you run \"plinth init\" or \"terraform init\" in the future.\n", lock.FileName)
	} else {
		fmt.Fprintf(out, "\nPlinth has made some changes to the provider dependency selections recorded\nin the %s file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n", lock.FileName)
	}
	return nil
}

// registry is the provider registry client: the CLI configuration's host
// and credentials blocks, TF_TOKEN_ variables, and SSL_CERT_FILE's CAs, read from the command's own
// environment (as Go would read them from the process's).
func (a *app) registry(conf install.CLIConfig) (*install.Registry, error) {
	reg := &install.Registry{Hosts: conf.Hosts, Token: conf.TokenFunc(a.env.getenv)}
	if a.env.StdoutTerminal {
		reg.Progress = progressBars(a.env.Stdout)
	}
	if path := a.env.getenv("SSL_CERT_FILE"); path != "" {
		pem, err := os.ReadFile(path)
		if err != nil {
			return nil, display.Errorf("Invalid SSL_CERT_FILE", "reading %s: %s.", path, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, display.Errorf("Invalid SSL_CERT_FILE", "%s holds no PEM certificates.", path)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool}
		reg.HTTP = &http.Client{Transport: tr}
	}
	return reg, nil
}

// warnDevOverrides warns, as terraform does, that the CLI
// configuration's dev_overrides are in effect; advice ends the warning.
func warnDevOverrides(w io.Writer, overrides map[string]string, advice string) {
	if len(overrides) == 0 {
		return
	}
	addrs := make([]string, 0, len(overrides))
	for a := range overrides {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	var b strings.Builder
	b.WriteString("The following provider development overrides are set in the CLI configuration:\n")
	for _, a := range addrs {
		p, _ := tfaddr.ParseProviderSource(a)
		fmt.Fprintf(&b, " - %s in %s\n", p.ForDisplay(), overrides[a])
	}
	b.WriteString("\n" + advice)
	d := display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Provider development overrides are in effect", Detail: b.String()}
	fmt.Fprintln(w, d.Format(false))
}
