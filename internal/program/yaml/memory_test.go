package yaml

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// releaseMonitor resolves "a" at once, keeping only a weak pointer to the
// asset in its inputs, and on the registration of "b" (which depends on
// "a") collects garbage and records whether that asset is gone.
type releaseMonitor struct {
	*fakeMonitor
	asset    weak.Pointer[resource.Asset]
	released bool
}

func (m *releaseMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	if reg.Name == "a" {
		m.asset = weak.Make(reg.Inputs["text"].Asset())
	} else {
		for range 100 {
			runtime.GC()
			if m.released = m.asset.Value() == nil; m.released {
				break
			}
		}
	}
	urn := m.URN(reg.Type, reg.Name, reg.Parent)
	done(engine.Registered{URN: urn, ID: resource.NewString(reg.Name + "-id"), Custom: true, Outputs: resource.Object{}}, nil)
}

// TestRegisteredInputsAreReleased: the evaluator keeps a custom resource's
// inputs only until the engine has taken them (a component's are kept:
// they are its outputs), so a program of many resources does not hold
// every resource's inputs to its end.
func TestRegisteredInputsAreReleased(t *testing.T) {
	p := mustParse(t, `
name: mem
resources:
  a:
    type: pkg:index:Thing
    properties: { text: { fn::stringAsset: only the registration holds this } }
  b:
    type: pkg:index:Thing
    properties: { dep: "${a.id}" }
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	mon := &releaseMonitor{fakeMonitor: &fakeMonitor{}}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !mon.released {
		t.Error("the inputs of resource a are still reachable after its registration finished; the evaluator should keep them only for components (nodeState.inputs)")
	}
}

// holdingMonitor keeps each registration's callback pending, and of the
// registration itself only a weak pointer to the asset in its "text"
// input, as an engine whose queue is long holds the registration and
// nothing more.
type holdingMonitor struct {
	*fakeMonitor
	mu      sync.Mutex
	asset   weak.Pointer[resource.Asset]
	pending []func()
}

func (m *holdingMonitor) pendingNow() []func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]func(){}, m.pending...)
}

// assetGone reports whether a registration came and its asset is gone.
func (m *holdingMonitor) assetGone() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pending) == 1 && m.asset.Value() == nil
}

func (m *holdingMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	urn, id := m.URN(reg.Type, reg.Name, reg.Parent), resource.NewString(reg.Name+"-id")
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asset = weak.Make(reg.Inputs["text"].Asset())
	m.pending = append(m.pending, func() {
		done(engine.Registered{URN: urn, ID: id, Custom: true, Outputs: resource.Object{}}, nil)
	})
}

// TestPendingCallbackKeepsNoInputs: while the engine has not run a
// custom resource's step, the callback the evaluator gave it does not
// keep the resource's inputs (the engine's copy of the registration is
// enough), so a long queue holds each resource's inputs once.
func TestPendingCallbackKeepsNoInputs(t *testing.T) {
	p := mustParse(t, `
name: mem
resources:
  a:
    type: pkg:index:Thing
    properties: { text: { fn::stringAsset: only the registration holds this } }
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	mon := &holdingMonitor{fakeMonitor: &fakeMonitor{}}
	ran := make(chan error, 1)
	go func() { ran <- ev.Run(context.Background(), mon) }()
	released := false
	for range 1000 {
		runtime.GC()
		if mon.assetGone() {
			released = true
			break
		}
		runtime.Gosched()
	}
	for _, f := range mon.pendingNow() {
		f()
	}
	if err := <-ran; err != nil {
		t.Fatalf("run: %v", err)
	}
	if !released {
		t.Error("the pending callback of resource a keeps its inputs reachable; it should keep only a component's inputs")
	}
}

// TestResourcesWithoutOptionsShareThem: a resource that sets no options
// spends no memory on them (it shares noOptions), one that sets some has
// its own, and parsing never writes into the shared value.
func TestResourcesWithoutOptionsShareThem(t *testing.T) {
	p := mustParse(t, `
name: mem
providers:
  pkg: { version: 1.2.3 }
resources:
  plain:
    type: pkg:index:Thing
  protected:
    type: pkg:index:Thing
    options: { protect: true, version: 2.0.0 }
`)
	shared := map[string]bool{}
	for _, d := range p.resources {
		shared[d.key] = d.opts == noOptions
	}
	want := map[string]bool{"pkg": false, "plain": true, "protected": false}
	if diff := cmp.Diff(want, shared); diff != "" {
		t.Errorf("resources sharing noOptions (-want +got):\n%s", diff)
	}
	if !reflect.ValueOf(*noOptions).IsZero() {
		t.Errorf("noOptions was written to: %+v; parse options into a resource's own resourceOptions", *noOptions)
	}
}

// TestPendingRegistrationsAreBounded: the evaluator sends the engine at
// most maxPending registrations it has not heard back from, so the
// engine's queue does not hold the inputs of every independent resource
// of a big program at once; the rest follow as callbacks come back, and
// every resource is registered in the end.
func TestPendingRegistrationsAreBounded(t *testing.T) {
	const total, limit = 10, 3
	var b strings.Builder
	b.WriteString("name: mem\nresources:\n")
	for i := range total {
		fmt.Fprintf(&b, "  r%d: { type: pkg:index:Thing, properties: { n: %d } }\n", i, i)
	}
	ev, err := mustParse(t, b.String()).Program(nil, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	ev.maxPending = limit
	mon := &fakeMonitor{hold: true, registered: make(chan string)}
	ran := make(chan error, 1)
	go func() { ran <- ev.Run(context.Background(), mon) }()
	var held []string
	for range limit {
		held = append(held, <-mon.registered)
	}
	select {
	case name := <-mon.registered:
		t.Fatalf("%s was registered while %d registrations were pending (%v); at most %d may be", name, limit, held, limit)
	case <-time.After(100 * time.Millisecond):
	}
	for count := limit; len(held) > 0; {
		mon.release(held[0])
		held = held[1:]
		if count == total {
			continue
		}
		select {
		case name := <-mon.registered:
			held = append(held, name)
			count++
		case err := <-ran:
			t.Fatalf("the run ended after %d of %d registrations: %v", count, total, err)
		}
	}
	if err := <-ran; err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(mon.regs) != total {
		t.Errorf("%d resources registered, want %d", len(mon.regs), total)
	}
}

// leafMonitor answers resource "a" with outputs holding an asset it keeps
// only a weak pointer to, and on the registration of "c" (registered
// once "b" has settled, after "a") records whether that asset is gone.
type leafMonitor struct {
	*fakeMonitor
	asset    weak.Pointer[resource.Asset]
	released bool
}

func (m *leafMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	outputs := resource.Object{}
	switch reg.Name {
	case "a":
		asset := &resource.Asset{Text: "only the outputs hold this"}
		m.asset, outputs["text"] = weak.Make(asset), resource.NewAsset(asset)
	case "c":
		for range 100 {
			runtime.GC()
			if m.released = m.asset.Value() == nil; m.released {
				break
			}
		}
	}
	urn := m.URN(reg.Type, reg.Name, reg.Parent)
	done(engine.Registered{URN: urn, ID: resource.NewString(reg.Name + "-id"), Custom: true, Outputs: outputs}, nil)
}

// TestLeafRegistrationIsNotKept: once a resource that nothing refers to
// has settled, the run keeps nothing of what the engine answered (its
// URN, ID, outputs), so a program of many independent resources does
// not hold every one's registration to its end. One that is referred to
// is kept: c reads b's ID.
func TestLeafRegistrationIsNotKept(t *testing.T) {
	p := mustParse(t, `
name: mem
resources:
  a:
    type: pkg:index:Thing
  b:
    type: pkg:index:Thing
  c:
    type: pkg:index:Thing
    properties: { dep: "${b.id}" }
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	mon := &leafMonitor{fakeMonitor: &fakeMonitor{}}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !mon.released {
		t.Error("the outputs of resource a, which nothing refers to, are still reachable after it settled; the run should keep a registration only for its dependents (keepsRegistration)")
	}
}

// TestLiteralExprsAreSmall: a program's literals and references, most of
// its expressions, do not carry the fields only lists, objects and calls
// use (compound): an expr stays within 112 bytes, not 208.
func TestLiteralExprsAreSmall(t *testing.T) {
	if got := unsafe.Sizeof(expr{}); got > 112 {
		t.Errorf("an expr is %d bytes, want at most 112: keep what only lists, objects and calls need in compound", got)
	}
	p := mustParse(t, `
name: mem
resources:
  a:
    type: pkg:index:Thing
    properties: { n: 2, s: "${b.id}", l: [1], o: { k: v }, c: { fn::toJSON: [1] } }
  b:
    type: pkg:index:Thing
`)
	got := map[string]bool{}
	for _, pr := range p.resources[0].props {
		got[pr.key] = pr.val.more != nil
	}
	want := map[string]bool{"n": false, "s": false, "l": true, "o": true, "c": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("properties with a compound part (-want +got):\n%s", diff)
	}
}
