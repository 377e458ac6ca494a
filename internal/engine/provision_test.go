package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provisioner"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// withProvisioners gives every operation of h the built-in provisioners.
func withProvisioners(h *harness) *harness {
	h.opts = func(o *engine.Options) { o.Provisioners = provisioner.Source{} }
	return h
}

// exec is a local-exec provisioner running command.
func localExec(command string, mod ...func(*engine.Provisioner)) engine.Provisioner {
	p := engine.Provisioner{Type: "local-exec", Config: resource.Object{"command": resource.NewString(command)}}
	for _, m := range mod {
		m(&p)
	}
	return p
}

func provisioned(name string, ps ...engine.Provisioner) prog {
	return prog{{name: name, inputs: map[string]any{"v": "1"}, opt: func(r *engine.Registration) { r.Provisioners = ps }}}
}

func (h *harness) output() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Kind == engine.EventProvisionerOutput {
			out = append(out, e.URN.Name()+": "+e.Message)
		}
	}
	return out
}

func (h *harness) destroy() (*engine.Result, error) {
	h.t.Helper()
	return h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Destroy(ctx, base, o)
	})
}

func TestProvisionerLocalExecOnCreateAndDestroy(t *testing.T) {
	h := withProvisioners(newHarness(t))
	dir := t.TempDir()
	mark := filepath.Join(dir, "destroyed")
	p := provisioned("a",
		localExec("echo created; echo second line"),
		localExec("echo bye > "+mark, func(p *engine.Provisioner) { p.When = "destroy" }))
	h.mustUp(p)
	want := []string{
		`a: Executing: ["/bin/sh" "-c" "echo created; echo second line"]`,
		"a: (local-exec): created",
		"a: (local-exec): second line",
	}
	if d := cmp.Diff(want, h.output()); d != "" {
		t.Errorf("provisioner output (-want +got):\n%s", d)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatalf("the destroy-time provisioner ran at create")
	}
	if got := h.get("a").DestroyProvisioners; len(got) != 1 {
		t.Fatalf("state records %d destroy provisioners, want 1", len(got))
	}
	if _, err := h.destroy(); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if b, err := os.ReadFile(mark); err != nil || string(b) != "bye\n" {
		t.Errorf("destroy-time provisioner did not run before delete: %q, %v", b, err)
	}
	if d := cmp.Diff([]string{"create a", "delete a"}, h.world.history()); d != "" {
		t.Errorf("world (-want +got):\n%s", d)
	}
}

func TestProvisionerFailureTaints(t *testing.T) {
	h := withProvisioners(newHarness(t))
	_, err := h.up(provisioned("a", localExec("echo oops; exit 3")))
	if err == nil || !strings.Contains(err.Error(), "exited with status 3") || !strings.Contains(err.Error(), "tainted") {
		t.Fatalf("up: got %v, want the provisioner's failure saying the resource is tainted", err)
	}
	r := h.get("a")
	if r == nil || r.ID == "" || !r.Tainted {
		t.Fatalf("state: got %+v, want the created resource recorded as tainted", r)
	}
}

func TestProvisionerOnFailureContinue(t *testing.T) {
	h := withProvisioners(newHarness(t))
	h.mustUp(provisioned("a", localExec("exit 1", func(p *engine.Provisioner) { p.OnFailure = "continue" }), localExec("echo after")))
	if r := h.get("a"); r == nil || r.Tainted {
		t.Fatalf("state: got %+v, want the resource, not tainted", r)
	}
	var warned bool
	for _, e := range h.events {
		warned = warned || e.Kind == engine.EventDiagnostic && e.Severity == engine.SeverityWarning && strings.Contains(e.Message, "on_failure = continue")
	}
	if !warned {
		t.Errorf("no warning for the failed provisioner with on_failure = continue")
	}
	if out := h.output(); len(out) == 0 || out[len(out)-1] != "a: (local-exec): after" {
		t.Errorf("the provisioner after the failed one did not run: %q", out)
	}
}

func TestProvisionerTimeout(t *testing.T) {
	h := withProvisioners(newHarness(t))
	start := time.Now()
	_, err := h.up(provisioned("a", localExec("echo started; sleep 30", func(p *engine.Provisioner) { p.Timeout = 300 * time.Millisecond })))
	if err == nil || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Fatalf("up: got %v, want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the hung provisioner took %s to end", d)
	}
	if r := h.get("a"); r == nil || r.ID == "" || !r.Tainted {
		t.Fatalf("state: got %+v, want the created resource recorded, tainted", r)
	}
	if d := cmp.Diff([]string{"a-1"}, h.world.ids()); d != "" {
		t.Errorf("world (-want +got):\n%s", d)
	}
}

func TestProvisionerInterrupted(t *testing.T) {
	h := withProvisioners(newHarness(t))
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 1)
	h.opts = func(o *engine.Options) {
		o.Provisioners = provisioner.Source{}
		events := o.Events
		o.Events = func(e engine.Event) {
			events(e)
			if e.Kind == engine.EventProvisionerOutput && strings.Contains(e.Message, "started") {
				started <- struct{}{}
			}
		}
	}
	go func() { <-started; cancel() }()
	start := time.Now()
	_, err := h.run(func(_ context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Update(ctx, provisioned("a", localExec("echo started; sleep 30")), base, o)
	})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("up: got %v, want the provisioner interrupted", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the interrupted provisioner took %s to end", d)
	}
	if r := h.get("a"); r == nil || r.ID == "" {
		t.Fatalf("state: got %+v, want the created resource recorded", r)
	}
}

// selfExec is a local-exec provisioner whose command is resolved from
// the resource's values (Terraform's self), as the HCL front end makes it.
func selfExec(format string, mod ...func(*engine.Provisioner)) engine.Provisioner {
	return localExec("unresolved", append([]func(*engine.Provisioner){func(p *engine.Provisioner) {
		p.Resolve = func(self resource.Object) (resource.Object, resource.Object, error) {
			cmd := strings.ReplaceAll(format, "SELF_V", self["v"].Str())
			cmd = strings.ReplaceAll(cmd, "SELF_ID", self["id"].Str())
			return resource.Object{"command": resource.NewString(cmd)}, nil, nil
		}
	}}, mod...)...)
}

// TestProvisionerResolvesSelf: a create-time provisioner runs with its
// configuration resolved against the new resource's outputs and ID; a
// destroy-time one is recorded resolved and runs so at delete.
func TestProvisionerResolvesSelf(t *testing.T) {
	h := withProvisioners(newHarness(t))
	dir := t.TempDir()
	mark := filepath.Join(dir, "destroyed")
	h.mustUp(provisioned("a",
		selfExec("echo v=SELF_V"),
		selfExec("echo SELF_ID > "+mark, func(p *engine.Provisioner) { p.When = "destroy" })))
	id := h.get("a").ID
	if d := cmp.Diff([]string{"a: (local-exec): v=1"}, h.output()[1:]); d != "" {
		t.Errorf("provisioner output (-want +got):\n%s", d)
	}
	rec := h.get("a").DestroyProvisioners
	if len(rec) != 1 || rec[0].Config["command"].Str() != "echo "+id+" > "+mark {
		t.Fatalf("recorded destroy provisioners = %+v, want the command resolved with the ID", rec)
	}
	if _, err := h.destroy(); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if data, err := os.ReadFile(mark); err != nil || strings.TrimSpace(string(data)) != id {
		t.Fatalf("destroy-time provisioner wrote %q (%v), want the ID %q", data, err, id)
	}
}

// recording is a Journal that keeps a copy of every entry it passes on.
type recording struct {
	inner   engine.Journal
	mu      sync.Mutex
	entries []state.Entry
}

func (r *recording) Record(ctx context.Context, e *state.Entry) error {
	c := *e
	c.Old, c.New = cloneOrNil(c.Old), cloneOrNil(c.New) // the engine may change them later
	r.mu.Lock()
	r.entries = append(r.entries, c)
	r.mu.Unlock()
	return r.inner.Record(ctx, e)
}

// TestProvisionerKilledMidwayLeavesTheResourceTainted: a resource whose
// create-time provisioners have not finished is recorded tainted, so a
// plinth killed while they run (the state as journaled up to that moment)
// leaves it to be replaced and provisioned again by the next update; the
// taint is lifted, in the journal too, once they have run.
func TestProvisionerKilledMidwayLeavesTheResourceTainted(t *testing.T) {
	h := withProvisioners(newHarness(t))
	rec := &recording{}
	h.opts = func(o *engine.Options) {
		o.Provisioners = provisioner.Source{}
		rec.inner = o.Journal
		o.Journal = rec
	}
	base := h.snap
	h.mustUp(provisioned("a", localExec("true")))
	if r := h.get("a"); r == nil || r.Tainted {
		t.Fatalf("after up: %+v, want a recorded and not tainted", r)
	}
	created := slices.IndexFunc(rec.entries, func(e state.Entry) bool {
		return e.Kind == state.End && e.Op == state.OpCreate && e.New != nil && e.New.URN.Name() == "a"
	})
	if created < 0 {
		t.Fatal("no create end entry for a was recorded")
	}
	// The state a kill just after the create's end entry leaves.
	j := state.NewMemoryJournal(base)
	for i := range rec.entries[:created+1] {
		if err := j.Record(context.Background(), &rec.entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	if r := j.Snapshot().Find(rec.entries[created].New.URN); r == nil || !r.Tainted {
		t.Errorf("killed while a's provisioner runs, the state holds %+v; want a recorded tainted", r)
	}
}

func cloneOrNil(r *state.Resource) *state.Resource {
	if r == nil {
		return nil
	}
	return r.Clone()
}
