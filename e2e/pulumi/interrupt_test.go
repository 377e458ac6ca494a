package pulumi_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestInterruptBothWays presses Ctrl-C twice while a 30s sleep is being
// created, in both modes. While it waits, the plugin process is there in
// the plugin mode and not in process mode. The second Ctrl-C cancels the
// call in flight, across the wire when there is one: the update ends at
// once, says the create was cancelled, records the quick resource and not the
// sleep, leaves the sleep's create pending (a create cut short may have
// happened) and no plugin running, and once that is cleared the next up
// creates the sleep.
func TestInterruptBothWays(t *testing.T) {
	for _, m := range []mode{inProcess(), outOfProcess()} {
		t.Run(m.name, func(t *testing.T) {
			p := newProject(t, "interrupt", m)
			r := interruptedUp(t, p)
			// Which cancellation reaches the sleep first, the call's
			// context or the provider's Cancel, is a race, and only the
			// former is reported as "Cancelled" until sdk/provider's
			// cancellation cause is context.Canceled: ask only that the
			// error say the create was cancelled.
			if r.Code != 1 || !strings.Contains(r.Stdout, "+ create failed slow") || !strings.Contains(r.Stderr, "cancel") {
				t.Errorf("interrupted up: exit %d, want 1 with the sleep's create cancelled\n%s", r.Code, r.Output())
			}
			if left := children(pluginBinary); len(left) > 0 {
				t.Errorf("plugin processes left running: %v", left)
			}
			const slow = "urn:pulumi:dev::interrupt::plinth:time:Sleep::slow"
			if out := p.run("state", "pending").Stdout; !strings.Contains(out, "create "+slow) {
				t.Errorf("state pending after the interrupt: want the sleep's create\n%s", out)
			}
			p.run("state", "pending", "--clear", slow, "--yes")
			ls := p.run("state", "ls").Stdout
			if !strings.Contains(ls, "plinth:random:Integer::quick") || strings.Contains(ls, "plinth:time:Sleep::slow") {
				t.Errorf("state after the interrupt: want quick and not slow\n%s", ls)
			}
			p.run("config", "set", "pause", "10ms")
			if lines := clitest.ChangeLines(p.run("up", "--yes", "--skip-preview").Stdout); !slices.Contains(lines, "+ created slow (plinth:time:Sleep) (1.5s)") {
				t.Errorf("the next up did not create the sleep: %q", lines)
			}
		})
	}
}

// interruptedUp starts `up`, waits until the sleep is being created and
// the quick resource is done, checks which processes serve it, and presses Ctrl-C twice.
func interruptedUp(t *testing.T, p *project) clitest.Result {
	t.Helper()
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
	watch.WaitFor(t, "+ creating slow", done)
	watch.WaitFor(t, "+ created quick", done)
	running := len(children(pluginBinary)) > 0
	if want := p.mode.server == pluginBinary; running != want {
		t.Errorf("during the sleep, a plugin process is running: %v, want %v", running, want)
	}
	interrupts <- os.Interrupt
	interrupts <- os.Interrupt
	<-done
	return r
}
