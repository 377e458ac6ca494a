package pulumi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/install/registrytest"
)

// installedAt is where a plugin install puts the plinth plugin v0.2.0
// for a project: its Pulumi home's plugin cache.
func installedAt(t *testing.T, p *project) string {
	t.Helper()
	home, err := filepath.EvalSymlinks(p.opts.Env["PULUMI_HOME"])
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(home, "plugins", "resource-plinth-v0.2.0", "pulumi-resource-plinth")
}

// autoProject is the version-option program asking for plinth 0.2.0,
// which neither the built-in (0.1.0) nor any installed plugin is.
func autoProject(t *testing.T, name string) *project {
	t.Helper()
	p := newProject(t, "versions-option", mode{name: name})
	clitest.Edit(t, p.dir, "plinth.yaml", `">= 0.1"`, `"0.2.0"`)
	if err := os.MkdirAll(p.opts.Env["PULUMI_HOME"], 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPluginInstalledOnUp: a program naming a plugin version that is not
// on disk has it installed from its download URL (here through
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES) into Pulumi's plugin cache, and
// the installed plugin serves the resource.
func TestPluginInstalledOnUp(t *testing.T) {
	srv := registrytest.NewPluginServer(t, "plinth", "0.2.0", pluginBinary)
	srv.Checksums = true
	p := autoProject(t, "auto-install")
	p.opts.Env["PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"] = "^plinth$=" + srv.URL
	r := p.run("up", "--yes")
	if !strings.Contains(r.Stderr, "Installed resource plugin plinth v0.2.0") || !strings.Contains(r.Stderr, "(checksum verified)") {
		t.Errorf("up does not say it installed the plugin:\n%s", r.Stderr)
	}
	if got, want := strings.TrimSpace(p.run("stack", "output", "servedBy").Stdout), installedAt(t, p); got != want {
		t.Errorf("served by %s, want the installed plugin %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(installedAt(t, p))), "resource-plinth-v0.2.0.partial")); err == nil {
		t.Error("the .partial marker was left")
	}
}

// TestPluginInstallCommand: plinth plugin install resource NAME VERSION
// --server URL installs the plugin, which up then uses without asking the
// server again; bad input is refused with nothing installed.
func TestPluginInstallCommand(t *testing.T) {
	srv := registrytest.NewPluginServer(t, "plinth", "0.2.0", pluginBinary)
	p := autoProject(t, "install-command")
	out := p.run("plugin", "install", "resource", "plinth", "0.2.0", "--server", srv.URL).Stdout
	if !strings.Contains(out, "Installed resource plugin plinth v0.2.0") || !strings.Contains(out, "(no checksums published)") {
		t.Errorf("plugin install says:\n%s", out)
	}
	asked := len(srv.Requests())
	p.run("up", "--yes")
	if got, want := strings.TrimSpace(p.run("stack", "output", "servedBy").Stdout), installedAt(t, p); got != want {
		t.Errorf("served by %s, want the installed plugin %s", got, want)
	}
	if len(srv.Requests()) != asked {
		t.Errorf("up asked the server again: %v", srv.Requests()[asked:])
	}
	for args, want := range map[string]string{
		"plugin install language yaml 1.0.0":                       "plinth installs resource plugins (providers) only",
		"plugin install resource plinth latest":                    "give an exact version",
		"plugin install resource plinth 9.9.9 --server " + srv.URL: "404",
		"plugin install resource plinth 0.3.0 --server file:///x":  "give an http:// or https:// URL",
	} {
		r := p.try(strings.Fields(args)...)
		if r.Code != 1 || !strings.Contains(r.Stderr, want) {
			t.Errorf("plinth %s: exit %d, stderr does not say %q:\n%s", args, r.Code, want, r.Stderr)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(p.opts.Env["PULUMI_HOME"], "plugins"))
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if strings.Join(dirs, ",") != "resource-plinth-v0.2.0" {
		t.Errorf("plugin directories after the refusals: %v", dirs)
	}
}
