package langhost

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// idleMonitor is an engine.Monitor the tests never register with.
type idleMonitor struct{}

func (idleMonitor) Register(engine.Registration, func(engine.Registered, error))   {}
func (idleMonitor) RegisterOutputs(resource.URN, resource.Object) error            { return nil }
func (idleMonitor) SetStackOutputs(resource.Object)                                {}
func (idleMonitor) Recorded(resource.URN) bool                                     { return false }
func (idleMonitor) URN(typ, name string, parent resource.URN) resource.URN         { return "" }
func (idleMonitor) Schema(context.Context, string, string) (*schema.Schema, error) { return nil, nil }
func (idleMonitor) Invoke(context.Context, engine.InvokeRequest) (resource.Object, error) {
	return nil, nil
}

// hostFunc is a Host that runs a function as the program.
type hostFunc func(context.Context, RunRequest) error

func (f hostFunc) Check(*Project) error                          { return nil }
func (f hostFunc) Run(ctx context.Context, req RunRequest) error { return f(ctx, req) }

// TestServeMonitorIsTheProgramsDuringItsRun: while the program runs, the
// monitor served to component providers is the program's own (so its
// transforms and hooks apply to their children), for the preview's
// variant too; with no run under way it is a monitor of its own. Before,
// component providers always got a monitor of their own, which knew
// nothing of the program's transforms.
func TestServeMonitorIsTheProgramsDuringItsRun(t *testing.T) {
	var during []string
	p := &Program{Project: &Project{Name: "p", Dir: t.TempDir()}, Stack: "dev", Monitors: &Monitors{}}
	p.Host = hostFunc(func(_ context.Context, req RunRequest) error {
		addr, stop, err := p.ServeMonitor(idleMonitor{})
		if err != nil {
			return err
		}
		stop()
		during = append(during, req.MonitorAddr, addr)
		return nil
	})
	for _, prog := range []engine.Program{p, p.DryRun()} {
		if err := prog.Run(context.Background(), idleMonitor{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(during) != 4 || during[0] != during[1] || during[2] != during[3] {
		t.Errorf("program's monitor, served monitor (update, then preview) = %q, want each pair equal", during)
	}
	addr, stop, err := p.ServeMonitor(idleMonitor{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if addr == "" || addr == during[0] || addr == during[2] {
		t.Errorf("with no run under way the served monitor is %q, want one of its own", addr)
	}
}
