package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestCheckFailuresNamePropertiesAndChangeNothing(t *testing.T) {
	h := newHarness(t)
	h.fake.CheckF = func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
		if req.News["size"].Number() > 10 {
			return provider.CheckResponse{Failures: []provider.CheckFailure{{Property: "size", Reason: "must be at most 10"}}}, nil
		}
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	_, err := h.up(prog{{name: "a", inputs: map[string]any{"size": 11}}, {name: "b", deps: []string{"a"}}})
	var ce *engine.CheckError
	if !errors.As(err, &ce) || ce.URN.Name() != "a" || ce.Failures[0].Property != "size" {
		t.Fatalf("got %v, want a CheckError for a naming size", err)
	}
	if !strings.Contains(err.Error(), "size: must be at most 10") {
		t.Errorf("message %q does not say what is wrong", err)
	}
	diffStrings(t, "state", nil, h.names())
	diffStrings(t, "world", nil, h.world.ids())
}

func TestCreateErrorRecordsNothing(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "keep"}})
	h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
		return provider.CreateResponse{}, errors.New("quota exceeded")
	}
	_, err := h.up(prog{{name: "keep"}, {name: "a"}})
	if err == nil || !strings.Contains(err.Error(), "creating urn:pulumi:dev::proj::pkg:index:Thing::a: quota exceeded") {
		t.Fatalf("got %v", err)
	}
	diffStrings(t, "state", []string{"keep"}, h.names())
}

func TestFailureStopsDeletesOfUnregistered(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "old"}})
	h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
		return provider.CreateResponse{}, errors.New("boom")
	}
	if _, err := h.up(prog{{name: "new"}}); err == nil {
		t.Fatal("want an error")
	}
	diffStrings(t, "a failed update deletes nothing", []string{"old"}, h.names())
}

func TestPartialCreateIsRecorded(t *testing.T) {
	h := newHarness(t)
	create := h.fake.CreateF
	partial := true
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		resp, err := create(ctx, req)
		if partial && !req.Preview {
			return provider.CreateResponse{}, &provider.InitError{ID: resp.ID, Outputs: resp.Outputs, Reasons: []string{"health check failed"}}
		}
		return resp, err
	}
	_, err := h.up(prog{{name: "a"}})
	if err == nil || !strings.Contains(err.Error(), "health check failed") {
		t.Fatalf("got %v, want the init failure reported", err)
	}
	a := h.get("a")
	if a == nil || a.ID != "a-1" || len(a.InitErrors) != 1 {
		t.Fatalf("state %v: want a recorded with its ID and the reason", h.names())
	}
	partial = false
	res := h.mustUp(prog{{name: "a"}})
	if res.Counts[engine.OpUpdate] != 1 || len(h.get("a").InitErrors) != 0 {
		t.Errorf("the next up should retry initialisation with an update: counts %v, errors %v", res.Counts, h.get("a").InitErrors)
	}
}

func TestUpdateErrorKeepsOldState(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "a", inputs: map[string]any{"x": 1}}})
	h.fake.UpdateF = func(context.Context, provider.UpdateRequest) (provider.UpdateResponse, error) {
		return provider.UpdateResponse{}, errors.New("conflict")
	}
	_, err := h.up(prog{{name: "a", inputs: map[string]any{"x": 2}}})
	if err == nil || !strings.Contains(err.Error(), "updating") {
		t.Fatalf("got %v", err)
	}
	if h.get("a").Inputs["x"].Number() != 1 {
		t.Errorf("state %v after a failed update, want the old inputs", h.get("a").Inputs)
	}
}

func TestDeleteErrorKeepsResource(t *testing.T) {
	h := newHarness(t)
	h.mustUp(chain(1))
	h.fake.DeleteF = func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
		if req.URN.Name() == "b" {
			return provider.DeleteResponse{}, errors.New("in use")
		}
		return provider.DeleteResponse{}, h.world.remove(req.URN, req.ID)
	}
	_, err := h.up(prog{})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("got %v", err)
	}
	diffStrings(t, "state: c deleted, b failed, so a (which b needs) kept", []string{"a", "b"}, h.names())
}

func TestProviderPanicIsAnError(t *testing.T) {
	h := newHarness(t)
	h.mustUp(prog{{name: "keep"}})
	h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
		panic("nil map write")
	}
	_, err := h.up(prog{{name: "keep"}, {name: "a"}})
	if err == nil || !strings.Contains(err.Error(), "provider panicked: nil map write") {
		t.Fatalf("got %v", err)
	}
	diffStrings(t, "state", []string{"keep"}, h.names())
	if len(h.snap.Pending) != 0 {
		t.Errorf("pending %v: a panic means the create failed", h.snap.Pending)
	}
}

func TestJournalFailureStopsBeforeProviderCall(t *testing.T) {
	h := newHarness(t)
	calls := 0
	create := h.fake.CreateF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		calls++
		return create(ctx, req)
	}
	p := prog{{name: "a"}}
	jerr := errors.New("disk full")
	ctx := context.Background()
	j := newFailingJournal(h.snap, jerr)
	_, err := engine.Update(ctx, p, h.snap, h.options(j))
	if !errors.Is(err, jerr) {
		t.Fatalf("got %v, want the journal's error", err)
	}
	if calls != 0 {
		t.Errorf("the provider was called %d times though its step could not be journaled", calls)
	}
}

func TestEmptyIDLeavesCreatePending(t *testing.T) {
	h := newHarness(t)
	h.fake.CreateF = func(context.Context, provider.CreateRequest) (provider.CreateResponse, error) {
		return provider.CreateResponse{Outputs: resource.Object{}}, nil
	}
	_, err := h.up(prog{{name: "a"}})
	if err == nil || !strings.Contains(err.Error(), "no ID") {
		t.Fatalf("got %v", err)
	}
	if len(h.snap.Pending) != 1 || h.snap.Pending[0].Resource.URN.Name() != "a" {
		t.Fatalf("pending %v, want the create of a", h.snap.Pending)
	}
	_, err = h.up(prog{{name: "a"}})
	var pe *engine.PendingError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "plinth state pending") {
		t.Errorf("an update with an unresolved pending create: got %v, want a PendingError", err)
	}
}
