package yaml

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// getProgram reads an existing file whose ID comes from config, and one
// whose ID comes from a resource the program creates; a managed resource
// uses the first one's outputs.
const getProgram = `
name: get
config:
  existing: { default: /srv/motd }
resources:
  maker:
    type: fake:index:Maker
    properties: { n: 1 }
  motd:
    type: fake:index:File
    get:
      id: ${existing}
      state: { path: "${existing}" }
  made:
    type: fake:index:File
    get:
      id: ${maker.made}
  later:
    type: fake:index:File
    get:
      id: /srv/later
      state: { path: "${maker.made}" }
  copy:
    type: fake:index:File
    properties: { content: "${motd.content}" }
outputs:
  motd: ${motd.content}
  id: ${motd.id}
`

// TestGetRegistersARead checks that get becomes a read registration: the
// ID evaluated (unknown in a preview when it depends on what is not
// created yet), state as its inputs, and its outputs usable by others.
func TestGetRegistersARead(t *testing.T) {
	for _, preview := range []bool{false, true} {
		mon := &fakeMonitor{preview: preview, extras: map[string]resource.Object{
			"motd":  {"content": str("hello")},
			"maker": {"made": str("/srv/made")},
		}}
		runOK(t, mustParse(t, getProgram), nil, mon)
		motd, _ := mon.byName("motd")
		want := engine.Registration{Type: "fake:index:File", Name: "motd", Custom: true, ReadID: "/srv/motd",
			Inputs: resource.Object{"path": str("/srv/motd")}}
		if diff := cmp.Diff(want, motd, valueCmp); diff != "" {
			t.Errorf("preview=%v: motd (-want +got):\n%s", preview, diff)
		}
		made, _ := mon.byName("made")
		wantID := "/srv/made"
		if preview {
			wantID = engine.UnknownID
		}
		if made.ReadID != wantID || len(made.Dependencies) != 1 || made.Dependencies[0].Name() != "maker" {
			t.Errorf("preview=%v: made reads ID %q with dependencies %v, want %q after maker", preview, made.ReadID, made.Dependencies, wantID)
		}
		later, _ := mon.byName("later")
		wantLater := "/srv/later"
		if preview {
			wantLater = engine.UnknownID // its state is not known yet
		}
		if later.ReadID != wantLater {
			t.Errorf("preview=%v: later reads ID %q, want %q", preview, later.ReadID, wantLater)
		}
		cp, _ := mon.byName("copy")
		wantContent := str("hello")
		if preview {
			wantContent = resource.Unknown()
		}
		if diff := cmp.Diff(resource.Object{"content": wantContent}, cp.Inputs, valueCmp); diff != "" {
			t.Errorf("preview=%v: copy's inputs (-want +got):\n%s", preview, diff)
		}
		if !preview {
			want := resource.Object{"motd": str("hello"), "id": str("/srv/motd")}
			if diff := cmp.Diff(want, mon.stackOutputs, valueCmp); diff != "" {
				t.Errorf("stack outputs (-want +got):\n%s", diff)
			}
		}
	}
}

// TestGetErrors checks the get forms that are refused before anything
// runs, each with a diagnostic naming where and the fix.
func TestGetErrors(t *testing.T) {
	tests := map[string]struct {
		resource string
		want     []string
	}{
		"properties beside get": {`
    get: { id: x }
    properties: { path: x }`, []string{"Invalid get", "cannot have properties", "get.state"}},
		"no id": {`
    get: { state: { path: x } }`, []string{"Missing get id", "resources.r.get has no id"}},
		"id not a string": {`
    get: { id: 3 }`, []string{"Invalid option", "resources.r.get.id must be a string"}},
		"unknown field": {`
    get: { id: x, sate: {} }`, []string{"Unknown field", `get has no field "sate". Did you mean "state"?`}},
		"with import": {`
    get: { id: x }
    options: { import: x }`, []string{"Invalid get", "the option import"}},
		"component": {`
    component: true
    get: { id: x }`, []string{"Invalid get", "component: true"}},
		"not a mapping": {`
    get: x`, []string{"resources.r.get"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			src := "name: bad\nresources:\n  r:\n    type: fake:index:File" + tt.resource + "\n"
			_, err := Parse("plinth.yaml", t.TempDir(), []byte(src))
			if err == nil {
				t.Fatal("the program parsed")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestGetWithEngine reads an existing resource through the real engine:
// a preview reads it too, an update records it as external, a second
// update changes nothing, and destroy drops the record without deleting
// the resource.
func TestGetWithEngine(t *testing.T) {
	p := mustParse(t, `
name: get
resources:
  motd:
    type: fake:index:File
    get: { id: /srv/motd }
  copy:
    type: fake:index:File
    properties: { content: "${motd.content}" }
outputs:
  motd: ${motd.content}
`)
	var reads, deletes []string
	prov := &provider.Fake{
		ReadF: func(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
			reads = append(reads, req.ID)
			if req.ID != "/srv/motd" {
				return provider.ReadResponse{}, nil
			}
			return provider.ReadResponse{ID: req.ID, Outputs: resource.Object{"content": str("hello")}}, nil
		},
		CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
			return provider.CreateResponse{ID: "copy-1", Outputs: req.Inputs}, nil
		},
		DeleteF: func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
			deletes = append(deletes, req.ID)
			return provider.DeleteResponse{}, nil
		},
	}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := &state.Snapshot{}
	opts := func(j engine.Journal) engine.Options {
		return engine.Options{Stack: "dev", Project: p.Name(), Providers: singleSource{prov}, Journal: j}
	}
	ctx := context.Background()
	if _, err := engine.Preview(ctx, ev, snap, opts(nil)); err != nil {
		t.Fatalf("preview: %v", err)
	}
	if diff := cmp.Diff([]string{"/srv/motd"}, reads); diff != "" {
		t.Errorf("the preview's reads (-want +got):\n%s", diff)
	}
	for round := range 2 {
		j := state.NewMemoryJournal(snap, state.VerifyEach(t))
		res, err := engine.Update(ctx, ev, snap, opts(j))
		if err != nil {
			t.Fatalf("update %d: %v", round, err)
		}
		snap = j.Snapshot()
		if diff := cmp.Diff(resource.Object{"motd": str("hello")}, res.Outputs, valueCmp); diff != "" {
			t.Errorf("update %d outputs (-want +got):\n%s", round, diff)
		}
		if round == 1 && res.HasChanges() {
			t.Errorf("a second update changed something: %v", res.Counts)
		}
	}
	for _, r := range snap.Resources {
		if r.URN.Name() == "motd" && !r.External {
			t.Errorf("motd is recorded as managed: %+v", r)
		}
	}
	j := state.NewMemoryJournal(snap, state.VerifyEach(t))
	if _, err := engine.Destroy(ctx, snap, opts(j)); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if diff := cmp.Diff([]string{"copy-1"}, deletes); diff != "" {
		t.Errorf("destroy deleted (-want +got):\n%s", diff)
	}
	if n := len(j.Snapshot().Resources); n != 0 {
		t.Errorf("destroy left %d records", n)
	}
}

// singleSource hands out the same fake provider for every package.
type singleSource struct{ p provider.Provider }

func (s singleSource) NewProvider(context.Context, engine.ProviderRequest) (provider.Provider, error) {
	return s.p, nil
}
