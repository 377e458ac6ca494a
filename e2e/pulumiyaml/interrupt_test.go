//go:build linux

package pulumiyaml_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestInterrupt presses Ctrl-C twice while the program waits on a 30s
// sleep: the update ends within seconds saying the create was cancelled,
// no pulumi-language-yaml is left running, the resources recorded before
// are unchanged and the sleep is not recorded.
func TestInterrupt(t *testing.T) {
	p := newProject(t, "lifecycle")
	p.run("up", "--yes")
	before := parseState(t, p.run("state", "export").Stdout)
	p.edit("outputs:", "  wait:\n    type: plinth:time:Sleep\n    properties:\n      createDuration: 30s\noutputs:")

	watch := clitest.NewWatch()
	interrupts := make(chan os.Signal, 2)
	opts := p.opts
	opts.Progress, opts.Interrupts = watch, interrupts
	done := make(chan struct{})
	var r clitest.Result
	go func() {
		defer close(done)
		r = clitest.Run(t, p.dir, opts, "up", "--yes", "--skip-preview")
	}()
	watch.WaitFor(t, "plinth:time:Sleep wait creating", done)
	host := filepath.Join(hostDir, "pulumi-language-yaml")
	if len(children(host)) == 0 {
		t.Error("no pulumi-language-yaml is running while the program waits")
	}
	start := time.Now()
	interrupts <- os.Interrupt
	interrupts <- os.Interrupt
	<-done
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the interrupted up took %s to end", d)
	}
	if r.Code != 1 || !strings.Contains(r.Output(), "cancel") {
		t.Errorf("interrupted up: exit %d, want 1 saying the create was cancelled:\n%s", r.Code, r.Output())
	}
	if left := children(host); len(left) > 0 {
		t.Errorf("pulumi-language-yaml processes left running: %v", left)
	}
	// The host starts the provider plugin itself to read its schema, in a
	// process group of its own; stopping the host must not leave it.
	if left := running(filepath.Join(pluginDir, "pulumi-resource-plinth")); len(left) > 0 {
		defer killAll(left)
		t.Errorf("provider plugins left running: %v (%v of them children of this test)", left, children(filepath.Join(pluginDir, "pulumi-resource-plinth")))
	}
	const wait = "urn:pulumi:dev::yamllife::plinth:time:Sleep::wait"
	if out := p.run("state", "pending").Stdout; strings.Contains(out, wait) {
		p.run("state", "pending", "--clear", wait, "--yes")
	}
	after := parseState(t, p.run("state", "export").Stdout)
	if _, ok := after.Resources[wait]; ok {
		t.Error("the cancelled sleep is recorded")
	}
	if len(after.Resources) != len(before.Resources) || after.Outputs != before.Outputs {
		t.Errorf("the state changed: %d resources, outputs %s; before %d, %s", len(after.Resources), after.Outputs, len(before.Resources), before.Outputs)
	}
	for urn, res := range before.Resources {
		if after.Resources[urn] != res {
			t.Errorf("%s changed:\n%s\n%s", urn, res, after.Resources[urn])
		}
	}
}
