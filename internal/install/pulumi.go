package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	version "github.com/hashicorp/go-version"
)

// PluginSpec names a Pulumi plugin to install.
type PluginSpec struct {
	// Kind is the plugin kind; plinth installs "resource" plugins.
	Kind string
	Name string
	// Version is an exact version ("4.16.0" or "v4.16.0").
	Version string
	// Server is the pluginDownloadURL ("" for Pulumi's default).
	Server string
}

// PluginInstaller installs Pulumi plugins into Pulumi's plugin cache as
// the pulumi CLI does: the tarball
// pulumi-KIND-NAME-vVERSION-OS-ARCH.tar.gz from the plugin's
// pluginDownloadURL (${VERSION}, ${OS} and ${ARCH} in it replaced), else
// from Pulumi's GitHub releases, then get.pulumi.com; unpacked into
// DIR/KIND-NAME-vVERSION, with a KIND-NAME-vVERSION.partial file beside
// it until it is complete and a KIND-NAME-vVERSION.lock file locked while
// installing. Where the server publishes
// pulumi-NAME_VERSION_checksums.txt (as provider releases do), the
// tarball must be listed there with its SHA-256.
type PluginInstaller struct {
	// Dir is the plugin cache: $PULUMI_HOME/plugins, else
	// ~/.pulumi/plugins.
	Dir      string
	Registry *Registry
	// Platform is what the plugin is for; zero is this machine's.
	Platform Platform
	// Overrides is PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: comma-separated
	// REGEXP=URL pairs; the first whose regexp matches a plugin's name
	// gives its download URL.
	Overrides string
	// Out gets progress lines; nil discards them.
	Out io.Writer
}

// PulumiOffline is the advice a Registry used for Pulumi plugins gives
// when a server cannot be reached.
const PulumiOffline = "Offline, install the plugin from a server that can be reached: plinth plugin install resource NAME VERSION --server URL, or set PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES (NAME-REGEXP=URL) for automatic installs; or put the plugin in Pulumi's plugin cache (~/.pulumi/plugins/resource-NAME-vVERSION) or another directory plinth plugin ls lists"

var pluginName = regexp.MustCompile(`^[a-z0-9][a-z0-9-_.]*$`)

// Check refuses a spec plinth cannot install, saying why.
func (s PluginSpec) Check() error {
	if s.Kind != "resource" {
		return fmt.Errorf("plugin kind %q: plinth installs resource plugins (providers) only", s.Kind)
	}
	if !pluginName.MatchString(s.Name) {
		return fmt.Errorf("plugin name %q: a name is lower-case letters, digits, '-', '_' and '.', as in aws or random", s.Name)
	}
	if _, err := version.NewSemver(strings.TrimPrefix(s.Version, "v")); err != nil || strings.ContainsAny(s.Version, "<>=~, ") {
		return fmt.Errorf("plugin version %q: give an exact version, such as 4.16.0", s.Version)
	}
	if s.Server != "" {
		u, err := url.Parse(s.Server)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("plugin download URL %q: give an http:// or https:// URL", s.Server)
		}
	}
	return nil
}

func (s PluginSpec) version() string { return strings.TrimPrefix(s.Version, "v") }

// DirName is the plugin's directory in the cache: resource-NAME-vVERSION.
func (s PluginSpec) DirName() string { return s.Kind + "-" + s.Name + "-v" + s.version() }

func (in *PluginInstaller) platform() Platform {
	if in.Platform == (Platform{}) {
		return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
	}
	return in.Platform
}

// Tarball is the release file's name for a platform.
func (s PluginSpec) Tarball(pl Platform) string {
	return fmt.Sprintf("pulumi-%s-%s-v%s-%s-%s.tar.gz", s.Kind, s.Name, s.version(), pl.OS, pl.Arch)
}

// sources are the base URLs to try, in order.
func (in *PluginInstaller) sources(s PluginSpec) []string {
	server := s.Server
	for _, pair := range strings.Split(in.Overrides, ",") {
		re, u, ok := strings.Cut(pair, "=")
		if ok && re != "" {
			if m, err := regexp.MatchString(re, s.Name); err == nil && m {
				server = u
				break
			}
		}
	}
	if server != "" {
		pl := in.platform()
		return []string{strings.NewReplacer("${VERSION}", s.version(), "${OS}", pl.OS, "${ARCH}", pl.Arch).Replace(server)}
	}
	return []string{"https://github.com/pulumi/pulumi-" + s.Name + "/releases/download/v" + s.version(),
		"https://get.pulumi.com/releases/plugins"}
}

// Install installs the plugin unless the cache has it complete; it
// returns the plugin's directory.
func (in *PluginInstaller) Install(ctx context.Context, s PluginSpec) (string, error) {
	if err := s.Check(); err != nil {
		return "", err
	}
	if in.Dir == "" {
		return "", errors.New("there is no plugin cache to install into: set PULUMI_HOME or HOME")
	}
	final := filepath.Join(in.Dir, s.DirName())
	if err := os.MkdirAll(in.Dir, 0o755); err != nil {
		return "", fmt.Errorf("making the plugin cache %s: %w", in.Dir, err)
	}
	unlock, err := lockFile(final + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if complete(final) {
		in.printf("%s plugin %s v%s is already installed in %s\n", s.Kind, s.Name, s.version(), final)
		return final, nil
	}
	var errs []error
	for _, base := range in.sources(s) {
		err := in.from(ctx, s, base, final)
		if err == nil {
			return final, nil
		}
		errs = append(errs, err)
		var nf notFound
		if !errors.As(err, &nf) && !errors.Is(err, ErrUnreachable) {
			break // a refused package is not looked for elsewhere
		}
	}
	return "", fmt.Errorf("installing %s plugin %s v%s: %w; nothing was installed", s.Kind, s.Name, s.version(), errors.Join(errs...))
}

func (in *PluginInstaller) printf(format string, args ...any) {
	if in.Out != nil {
		fmt.Fprintf(in.Out, format, args...)
	}
}

// complete reports whether a plugin directory exists without a .partial
// marker.
func complete(dir string) bool {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return false
	}
	_, err := os.Stat(dir + ".partial")
	return errors.Is(err, os.ErrNotExist)
}

// from downloads the tarball from base, checks it, and unpacks it into
// final: marked .partial until the directory is whole.
func (in *PluginInstaller) from(ctx context.Context, s PluginSpec, base, final string) error {
	name := s.Tarball(in.platform())
	u := strings.TrimSuffix(base, "/") + "/" + url.PathEscape(name)
	host := hostOf(u)
	tmp, err := os.MkdirTemp(in.Dir, ".installing-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	in.printf("Downloading %s plugin %s v%s from %s\n", s.Kind, s.Name, s.version(), u)
	path, sum, err := in.Registry.save(ctx, u, host, tmp)
	if err != nil {
		return err
	}
	checked, err := in.checkSum(ctx, s, base, name, sum)
	if err != nil {
		return err
	}
	unpacked := filepath.Join(tmp, "unpacked")
	if err := untarFile(path, unpacked); err != nil {
		return fmt.Errorf("unpacking %s: %w", u, err)
	}
	bin := filepath.Join(unpacked, "pulumi-"+s.Kind+"-"+s.Name)
	if st, err := os.Stat(bin); err != nil || st.Mode()&0o111 == 0 {
		return fmt.Errorf("%s holds no executable pulumi-%s-%s, so it is not the plugin's release", u, s.Kind, s.Name)
	}
	if err := os.WriteFile(final+".partial", nil, 0o644); err != nil {
		return err
	}
	if err := replaceDir(unpacked, final); err != nil {
		return err
	}
	if err := os.Remove(final + ".partial"); err != nil {
		return err
	}
	in.printf("Installed %s plugin %s v%s in %s (%s)\n", s.Kind, s.Name, s.version(), final, checked)
	return nil
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}

// checkSum checks the tarball against the server's checksums file when
// it publishes one, and says what was checked.
func (in *PluginInstaller) checkSum(ctx context.Context, s PluginSpec, base, name, sum string) (string, error) {
	sumsName := fmt.Sprintf("pulumi-%s_%s_checksums.txt", s.Name, s.version())
	u := strings.TrimSuffix(base, "/") + "/" + sumsName
	body, err := in.Registry.getAll(ctx, u, hostOf(u))
	var nf notFound
	if errors.As(err, &nf) {
		return "no checksums published", nil
	}
	if err != nil {
		return "", fmt.Errorf("downloading the checksums %s: %w", u, err)
	}
	listed, err := parseSums(body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	want, ok := listed[name]
	if !ok {
		return "", fmt.Errorf("the checksums %s do not list %s, so it was not installed", u, name)
	}
	if !strings.EqualFold(want, sum) {
		return "", fmt.Errorf("the downloaded %s has SHA-256 %s, but %s lists %s: it was changed or corrupted, so it was not installed", name, sum, u, want)
	}
	return "checksum verified", nil
}

func untarFile(path, dir string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return untarGz(f, dir)
}
