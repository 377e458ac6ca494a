package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// readHarness is a harness whose world holds a thing made outside plinth
// (ID "ext-0"), and which counts the provider's Read calls.
func readHarness(t *testing.T) (*harness, *atomic.Int32) {
	h := newHarness(t)
	h.world.things["ext-0"] = resource.Object{"size": resource.NewNumber(1)}
	var reads atomic.Int32
	read := h.fake.ReadF
	h.fake.ReadF = func(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
		reads.Add(1)
		return read(ctx, req)
	}
	return h, &reads
}

// readOf reads the thing with id as an external resource.
func readOf(name, id string) spec {
	return spec{name: name, opt: func(r *engine.Registration) { r.ReadID = id }}
}

// TestReadExternal: a read resource is recorded External with what Read
// returned, other resources depend on it and see its outputs, a preview
// reads it too, a rerun changes nothing, and neither dropping it from the
// program nor a destroy deletes it in the world.
func TestReadExternal(t *testing.T) {
	h, reads := readHarness(t)
	withRead := prog{readOf("ext", "ext-0"), {name: "b", deps: []string{"ext"}, from: map[string]string{"y": "ext.out"}}}

	res, err := h.preview(withRead)
	if err != nil {
		t.Fatal(err)
	}
	if reads.Load() != 1 || res.Counts[engine.OpRead] != 1 {
		t.Errorf("preview: %d reads, counts %v; want the read done and counted", reads.Load(), res.Counts)
	}
	h.mustUp(withRead)
	diffStrings(t, "ops", []string{"create b", "read ext"}, h.ops())
	ext := h.get("ext")
	if ext == nil || !ext.External || ext.ID != "ext-0" || ext.Outputs["out"].Str() != "out-ext-0" {
		t.Fatalf("recorded read = %+v, want external ext-0 with its outputs", ext)
	}
	if got := h.get("b").Inputs["y"].Str(); got != "out-ext-0" {
		t.Errorf("b.y = %q, want the read resource's output", got)
	}
	if res := h.mustUp(withRead); res.HasChanges() {
		t.Errorf("a rerun changed something: %v", res.Counts)
	}

	h.mustUp(prog{{name: "b", inputs: map[string]any{"y": "out-ext-0"}}})
	diffStrings(t, "ops after the program stops reading", []string{"discard ext"}, h.ops())
	diffStrings(t, "state", []string{"b"}, h.names())

	h.mustUp(withRead)
	if _, err := h.destroy(); err != nil {
		t.Fatal(err)
	}
	diffStrings(t, "state after destroy", nil, h.names())
	diffStrings(t, "world after destroy", []string{"ext-0"}, h.world.ids())
	for _, e := range h.world.history() {
		if strings.Contains(e, "ext") {
			t.Errorf("plinth changed the external resource in the world: %s", e)
		}
	}
}

// TestReadErrors: a read of a resource that does not exist names its URN
// and ID; a read under the URN of a managed resource is refused; both
// leave the state as it was.
func TestReadErrors(t *testing.T) {
	h, _ := readHarness(t)
	h.mustUp(prog{{name: "a"}})
	tests := map[string]struct {
		prog prog
		want []string
		as   any
	}{
		"not found": {prog{{name: "a"}, readOf("gone", "nope")}, []string{"::gone", `"nope"`, "found no resource"}, new(*engine.ReadNotFoundError)},
		"managed":   {prog{readOf("a", "ext-0")}, []string{"::a", "plinth manages", "state rm"}, new(*engine.ManagedReadError)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := h.up(tc.prog)
			if err == nil {
				t.Fatal("the update succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !errors.As(err, tc.as) {
				t.Errorf("error %v is not a %T", err, tc.as)
			}
			if a := h.get("a"); a == nil || a.External || a.ID != "a-1" {
				t.Errorf("the managed resource's record changed: %+v", a)
			}
		})
	}
}

// TestReadThenManage: a program that stops reading a resource and creates
// one under the same URN gets a new resource; the read one is not deleted.
func TestReadThenManage(t *testing.T) {
	h, _ := readHarness(t)
	h.mustUp(prog{readOf("ext", "ext-0")})
	h.mustUp(prog{{name: "ext", inputs: map[string]any{"size": 2}}})
	ext := h.get("ext")
	if ext == nil || ext.External || ext.ID == "ext-0" {
		t.Fatalf("record = %+v, want a managed resource of plinth's own", ext)
	}
	diffStrings(t, "state", []string{"ext"}, h.names())
	diffStrings(t, "world", []string{"ext-0", ext.ID}, h.world.ids())
}

// TestReadKeepsRegisteredInputs: a read resource records the inputs the
// program registered, not those the provider's Read returned (Pulumi's
// read step does the same), so that the record of a stack pulumi read
// (no inputs) is unchanged when plinth reads it again.
func TestReadKeepsRegisteredInputs(t *testing.T) {
	h, _ := readHarness(t)
	h.mustUp(prog{readOf("ext", "ext-0")})
	ext := h.get("ext")
	if ext == nil || len(ext.Inputs) != 0 || ext.Outputs["size"].IsNull() {
		t.Fatalf("recorded read = %+v, want the registration's (no) inputs and the provider's outputs", ext)
	}
	if res := h.mustUp(prog{readOf("ext", "ext-0")}); res.HasChanges() {
		t.Errorf("a rerun of the read changed something: %v", res.Counts)
	}
}
