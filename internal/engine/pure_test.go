package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// pureFake is a fake provider standing in for one in plinth's process
// that declares the type pureType pure (provider.Pure).
type pureFake struct{ *provider.Fake }

const pureType = "pkg:index:Pure"

func (pureFake) Pure(typ string) bool { return typ == pureType }

// fixedSource hands out one provider for the package "pkg".
type fixedSource struct{ p provider.Provider }

func (s fixedSource) NewProvider(_ context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	if req.Package != "pkg" {
		return nil, fmt.Errorf("no provider for package %q", req.Package)
	}
	return s.p, nil
}

// upJournaled runs an update of p through a memory journal, keeps the
// state it leaves and returns the journal.
func upJournaled(t *testing.T, h *harness, p engine.Program) *state.MemoryJournal {
	t.Helper()
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatalf("update: %v", err)
	}
	h.snap = j.Snapshot()
	return j
}

// kindsOf lists "kind op" of the entries naming the resource called name.
func kindsOf(entries []*state.Entry, name string) []string {
	var out []string
	for _, e := range entries {
		r := e.New
		if r == nil {
			r = e.Old
		}
		if r != nil && r.URN.Name() == name {
			out = append(out, e.Kind.String()+" "+string(e.Op))
		}
	}
	return out
}

// TestPureStepsWriteOneEntry creates, updates and deletes one resource:
// a type its in-process provider declares pure is journaled with one
// write entry per step; any other type, the same type through a provider
// that declares nothing (as every plugin in another process), or a step
// with hooks, with a begin and an end.
func TestPureStepsWriteOneEntry(t *testing.T) {
	bracketed := [][]string{{"begin create", "end create"}, {"begin update", "end update"}, {"begin delete", "end delete"}}
	hook := engine.Hook{Name: "h", Run: func(context.Context, engine.HookCall) error { return nil }}
	for name, tc := range map[string]struct {
		typ  string
		pure bool // the provider declares pureType pure
		opt  func(*engine.Registration)
		want [][]string // create, update, delete
	}{
		"pure type in process": {typ: pureType, pure: true,
			want: [][]string{{"write create"}, {"write update"}, {"write delete"}}},
		"other type in process":                {typ: "pkg:index:Thing", pure: true, want: bracketed},
		"pure type, provider declares nothing": {typ: pureType, want: bracketed},
		"pure type with create and update hooks": {typ: pureType, pure: true,
			opt: func(r *engine.Registration) {
				r.Hooks = engine.Hooks{BeforeCreate: []engine.Hook{hook}, AfterUpdate: []engine.Hook{hook}}
			},
			// The delete runs no hook: the state records none.
			want: [][]string{{"begin create", "end create"}, {"begin update", "end update"}, {"write delete"}}},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			var p provider.Provider = h.fake
			if tc.pure {
				p = pureFake{h.fake}
			}
			h.opts = func(o *engine.Options) { o.Providers = fixedSource{p} }
			var got [][]string
			for _, v := range []int{1, 2} {
				j := upJournaled(t, h, prog{{name: "r", typ: tc.typ, inputs: map[string]any{"v": v}, opt: tc.opt}})
				got = append(got, kindsOf(j.Entries(), "r"))
			}
			j := upJournaled(t, h, prog{})
			got = append(got, kindsOf(j.Entries(), "r"))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("journal entries of create, update, delete (-want +got):\n%s", diff)
			}
			if len(h.world.ids()) != 0 || len(h.names()) != 0 {
				t.Errorf("after the delete: world %v, state %v, want both empty", h.world.ids(), h.names())
			}
		})
	}
}

// TestPureStepsCutJournal runs updates that create, update and delete
// pure and other resources, one after another, and replays each journal
// cut at every entry boundary, as a crash would leave it: a pure step is
// never pending, and its resource is either as before the step or as
// after it.
func TestPureStepsCutJournal(t *testing.T) {
	h := newHarness(t)
	h.opts = func(o *engine.Options) { o.Providers = fixedSource{pureFake{h.fake}} }
	runs := []prog{
		{{name: "p", typ: pureType, inputs: map[string]any{"v": 1}},
			{name: "t", inputs: map[string]any{"v": 1}},
			{name: "q", typ: pureType, deps: []string{"t"}, from: map[string]string{"v": "t.out"}}},
		{{name: "p", typ: pureType, inputs: map[string]any{"v": 2}},
			{name: "t", inputs: map[string]any{"v": 2}},
			{name: "q", typ: pureType, deps: []string{"t"}, from: map[string]string{"v": "t.out"}}},
		{{name: "t", inputs: map[string]any{"v": 2}}},
	}
	for i, p := range runs {
		j := upJournaled(t, h, p)
		entries := j.Entries()
		final, err := j.ReplayPrefix(len(entries))
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= len(entries); n++ {
			l, err := j.ReplayPrefix(n)
			if err != nil {
				t.Fatalf("run %d, cut after %d of %d entries: %v", i+1, n, len(entries), err)
			}
			for _, po := range l.Pending() {
				if po.Resource.Type == pureType {
					t.Errorf("run %d, cut after %d entries: the pure %s is pending (%s)", i+1, n, po.Resource.URN, po.Op)
				}
			}
			for _, name := range []string{"p", "q"} {
				checkBeforeOrAfter(t, fmt.Sprintf("run %d, cut after %d entries: %s", i+1, n, name), name, j.Base(), l, final)
			}
		}
	}
}

// checkBeforeOrAfter fails unless the resource called name is in cut as
// it was in base or as it is in final (absent in both counts).
func checkBeforeOrAfter(t *testing.T, what, name string, base *state.Snapshot, cut, final *state.Live) {
	t.Helper()
	find := func(rs []*state.Resource) string {
		for _, r := range rs {
			if r.URN.Name() == name && !r.Delete {
				return fmt.Sprintf("id %s, inputs %v", r.ID, r.Inputs)
			}
		}
		return "absent"
	}
	before, after, got := find(base.Resources), find(final.Snapshot().Resources), find(cut.Snapshot().Resources)
	if got != before && got != after {
		t.Errorf("%s: %s, want as before (%s) or after (%s)", what, got, before, after)
	}
}

// TestPureCreateWithoutIDRecordsNothing: a create whose provider returns
// no ID fails; a bracketed one is left pending, a pure one leaves nothing
// recorded and says nothing is pending.
func TestPureCreateWithoutIDRecordsNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		typ         string
		wantPending int
	}{
		"pure":  {typ: pureType},
		"other": {typ: "pkg:index:Thing", wantPending: 1},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
				return provider.CreateResponse{}, nil
			}
			h.opts = func(o *engine.Options) { o.Providers = fixedSource{pureFake{h.fake}} }
			j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
			_, err := engine.Update(context.Background(), prog{{name: "r", typ: tc.typ}}, h.snap, h.options(j))
			if err == nil || !strings.Contains(err.Error(), "returned no ID") {
				t.Fatalf("update: error %v, want one saying the provider returned no ID", err)
			}
			if says := strings.Contains(err.Error(), "left pending"); says != (tc.wantPending > 0) {
				t.Errorf("error %q: says left pending %v, want %v", err, says, tc.wantPending > 0)
			}
			if got := len(j.Pending()); got != tc.wantPending {
				t.Errorf("pending operations: %d, want %d", got, tc.wantPending)
			}
			if got := kindsOf(j.Entries(), "r"); tc.wantPending == 0 && len(got) != 0 {
				t.Errorf("entries of r: %q, want none", got)
			}
		})
	}
}
