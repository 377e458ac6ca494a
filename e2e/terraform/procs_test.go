package terraform

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin"
)

// TestNoProviderOutlivesACommand runs commands that start real and fake
// providers, including one that crashes, and checks after each that no
// provider process is left running. It does not run in parallel, so the
// providers of other tests cannot be mistaken for leaks.
func TestNoProviderOutlivesACommand(t *testing.T) {
	p := realProject(t, "lifecycle")
	binaries := providerBinaries(t)
	commands := [][]string{
		{"preview"}, {"up", "--yes"}, {"refresh", "--yes"}, {"stack", "output"}, {"destroy", "--yes"},
	}
	for _, args := range commands {
		p.must(args...)
		if left := children(binaries); len(left) > 0 {
			t.Errorf("after plinth %s, provider processes are left running: %v", strings.Join(args, " "), left)
		}
	}
	crash := realProject(t, "fault")
	crash.opts.Env["PLINTH_PLUGIN_PATH"] = pluginDir + string(filepath.ListSeparator) + fakeDir
	change := addResource("thing", "crash_thing", "value: v")
	crash.edit(change[0], change[1])
	if r := crash.run("up", "--yes"); r.Code != 1 {
		t.Fatalf("up with a crashing provider exited %d, want 1\n%s", r.Code, r.Output())
	}
	if left := children(binaries); len(left) > 0 {
		t.Errorf("after a provider crashed, provider processes are left running: %v", left)
	}
}

// TestChildrenSeesAProvider: the leak check finds a running provider, so
// its silence means something.
func TestChildrenSeesAProvider(t *testing.T) {
	needReal(t)
	binaries := providerBinaries(t)
	// Given the handshake cookie, a provider serves until it is killed.
	cmd := exec.Command(binaries[0])
	cmd.Env = append(os.Environ(), tfplugin.Handshake.MagicCookieKey+"="+tfplugin.Handshake.MagicCookieValue)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if _, err := out.Read(make([]byte, 1)); err != nil {
		t.Fatalf("the provider printed no handshake: %v", err)
	}
	if got := children(binaries); !slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("children = %v, want it to include the provider's pid %d", got, cmd.Process.Pid)
	}
}

// providerBinaries are the executables provider processes run: the real
// providers in the cache and this test binary (the fakes).
func providerBinaries(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, name := range realProviders {
		path, err := filepath.EvalSymlinks(linked[name])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, path)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err = filepath.EvalSymlinks(exe)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, exe)
}

// children lists the processes this test process started that run one of
// binaries (read from /proc, so on Linux only; elsewhere it finds none).
func children(binaries []string) []int { return clitest.Children(binaries...) }
