package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// pendingOps lists the snapshot's pending operations as "op name".
func pendingOps(s *state.Snapshot) []string {
	var out []string
	for _, p := range s.Pending {
		out = append(out, string(p.Op)+" "+p.Resource.URN.Name())
	}
	return out
}

// TestUnknownOutcomeLeavesStepPending: a Create, Update or Delete that fails
// without saying whether it took effect (a crash, a broken connection, a
// timeout) is left pending, never recorded as failed.
func TestUnknownOutcomeLeavesStepPending(t *testing.T) {
	crash := provider.OutcomeUnknown(errors.New("the provider process exited"))
	for cname, cause := range map[string]error{"crash": crash, "deadline": context.DeadlineExceeded} {
		for name, tc := range unknownOutcomeCases() {
			t.Run(name+"/"+cname, func(t *testing.T) {
				h := newHarness(t)
				replaceOnKey(h.fake, "k", tc.dbr)
				h.mustUp(prog{{name: "a", inputs: map[string]any{"k": 1}}, {name: "keep"}})
				tc.fail(h, cause)
				_, err := h.up(tc.next)
				var oe *engine.OutcomeUnknownError
				if !errors.As(err, &oe) || !provider.IsOutcomeUnknown(err) {
					t.Fatalf("got %v, want an OutcomeUnknownError", err)
				}
				for _, want := range []string{"outcome is unknown", "left pending", tc.advice} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("message %q does not say %q", err, want)
					}
				}
				if diff := cmp.Diff(tc.pending, pendingOps(h.snap)); diff != "" {
					t.Errorf("pending operations (-want +got):\n%s", diff)
				}
				diffStrings(t, "state", tc.state, h.names())
			})
		}
	}
}

type unknownOutcomeCase struct {
	dbr     bool
	fail    func(h *harness, err error)
	next    prog
	pending []string
	state   []string
	advice  string
}

func unknownOutcomeCases() map[string]unknownOutcomeCase {
	failCreate := func(h *harness, err error) {
		h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
			return provider.CreateResponse{}, err
		}
	}
	failDelete := func(h *harness, err error) {
		h.fake.DeleteF = func(context.Context, provider.DeleteRequest) (provider.DeleteResponse, error) {
			return provider.DeleteResponse{}, err
		}
	}
	failUpdate := func(h *harness, err error) {
		h.fake.UpdateF = func(context.Context, provider.UpdateRequest) (provider.UpdateResponse, error) {
			return provider.UpdateResponse{}, err
		}
	}
	k := func(v int, x int) prog {
		return prog{{name: "a", inputs: map[string]any{"k": v, "x": x}}, {name: "keep"}}
	}
	return map[string]unknownOutcomeCase{
		"create": {fail: failCreate, next: append(k(1, 0), spec{name: "new"}), pending: []string{"create new"},
			state: []string{"a", "keep"}, advice: "plinth state pending"},
		"update": {fail: failUpdate, next: k(1, 2), pending: []string{"update a"},
			state: []string{"a", "keep"}, advice: "plinth refresh"},
		"delete": {fail: failDelete, next: prog{{name: "keep"}}, pending: []string{"delete a"},
			state: []string{"a", "keep"}, advice: "plinth refresh"},
		"replace create": {fail: failCreate, next: k(2, 0), pending: []string{"replace a"},
			state: []string{"a", "keep"}, advice: "plinth state pending"},
		"replace delete": {fail: failDelete, next: k(2, 0), pending: []string{"delete a"},
			state: []string{"a", "a(delete)", "keep"}, advice: "plinth refresh"},
		"delete before replace": {dbr: true, fail: failDelete, next: k(2, 0), pending: []string{"delete a"},
			state: []string{"a", "keep"}, advice: "plinth refresh"},
	}
}

// TestTimedOutCallIsPendingWhateverTheError: a call that outlives its
// timeout is pending even when the provider's error does not say why.
func TestTimedOutCallIsPendingWhateverTheError(t *testing.T) {
	h := newHarness(t)
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		<-ctx.Done()
		return provider.CreateResponse{}, errors.New("rpc error: code = Unavailable")
	}
	_, err := h.up(prog{{name: "a", opt: func(r *engine.Registration) { r.CustomTimeouts.Create = 10 * time.Millisecond }}})
	if err == nil || !strings.Contains(err.Error(), "timed out after 10ms") {
		t.Fatalf("got %v, want a timeout", err)
	}
	diffStrings(t, "pending", []string{"create a"}, pendingOps(h.snap))
}

// TestUnknownCreateStaysPendingThroughTheSession runs through a file-backed
// session: the pending create survives later steps and the compaction, and
// the next update refuses to run until it is resolved.
func TestUnknownCreateStaysPendingThroughTheSession(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	h := newHarness(t)
	h.mustUp(prog{{name: "keep"}})
	base := h.snap
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		if req.URN.Name() == "lost" && !req.Preview {
			return provider.CreateResponse{}, provider.OutcomeUnknown(errors.New("connection reset"))
		}
		return create(ctx, req)
	}
	backend := file.New(dir)
	s, err := state.Open(ctx, backend, "dev", state.OpenOptions{Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// Seed the file-backed stack with keep, then run an update in which
	// "lost" fails with an unknown outcome and "other" succeeds after it.
	for _, r := range base.Resources {
		if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpImport, New: r}); err != nil {
			t.Fatal(err)
		}
	}
	p := prog{{name: "keep"}, {name: "lost"}, {name: "other", deps: []string{"keep"}}}
	opts := h.options(s)
	opts.Parallel = 1
	if _, err := engine.Update(ctx, p, s.Snapshot(), opts); !provider.IsOutcomeUnknown(err) {
		t.Fatalf("update: %v, want an unknown outcome", err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	snap, err := state.Load(ctx, backend, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "pending after compaction", []string{"create lost"}, pendingOps(snap))
	_, err = engine.Update(ctx, p, snap, h.options(state.NewMemoryJournal(snap)))
	var pe *engine.PendingError
	if !errors.As(err, &pe) {
		t.Fatalf("next update: %v, want a PendingError for the unresolved create", err)
	}
}

// TestTwoPendingOperationsOnOneResource: a resource can be left with an
// interrupted update and an interrupted delete at once (the crash
// harness found it after provider kills); the next update acknowledges
// both and runs (it failed clearing the second, as one resolve entry
// clears every pending operation on its URN).
func TestTwoPendingOperationsOnOneResource(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", inputs: map[string]any{"v": "1"}}})
	r := h.snap.Find(h.snap.Resources[len(h.snap.Resources)-1].URN)
	h.snap.Pending = []state.PendingOperation{{Op: state.OpUpdate, Resource: r}, {Op: state.OpDelete, Resource: r}}
	h.mustUp(prog{{name: "a", inputs: map[string]any{"v": "1"}}})
	if len(h.snap.Pending) != 0 {
		t.Errorf("pending after the update: %v", h.snap.Pending)
	}
}

// TestRefreshKeepsAPendingCreateBesideAPendingDelete: a refresh clears an
// interrupted delete but not the pending create on the same URN (a
// create-before-delete replacement cut short), which only `plinth state
// pending` may settle.
func TestRefreshKeepsAPendingCreateBesideAPendingDelete(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", inputs: map[string]any{"v": "1"}}})
	r := h.snap.Find(h.snap.Resources[len(h.snap.Resources)-1].URN)
	h.snap.Pending = []state.PendingOperation{{Op: state.OpReplace, Resource: r}, {Op: state.OpDelete, Resource: r}}
	if _, err := h.run(func(ctx context.Context, base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Refresh(ctx, base, o)
	}); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if len(h.snap.Pending) != 2 || !h.snap.Pending[0].Blocks() {
		t.Errorf("pending after the refresh: %v, want the create and the delete kept", h.snap.Pending)
	}
}
