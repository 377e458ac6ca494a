package engine_test

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// tokenProgram registers what a Pulumi program with a dynamic provider
// and components of the kinds Pulumi accepts registers: a
// pulumi.dynamic.Resource (whose default provider is
// pulumi:providers:pulumi-nodejs), a component with a hyphen in its type
// name and one with a one-segment type, a child under each, and an
// explicit ProviderResource of the hyphenated package azure-native.
var tokenProgram = prog{
	{name: "dyn", typ: "pulumi-nodejs:dynamic:Resource", inputs: map[string]any{"x": "1"}},
	{name: "six", typ: "my:module:ComponentSixParent-v10", component: true},
	{name: "child", parent: "six", typ: "pulumi-nodejs:dynamic:Resource"},
	{name: "comp", typ: "component", component: true},
	{name: "inner", parent: "comp", typ: "my:module:ComponentSixParent-v10", component: true},
	{name: "leaf", parent: "inner"},
	{name: "az", typ: "pulumi:providers:azure-native"},
	{name: "sa", typ: "azure-native:storage:StorageAccount", provider: "az"},
}

// TestPulumiTokensLoadBack is the regression: a stack whose
// update wrote these resources to a file backend loads back (it failed:
// 'snapshot.json is damaged ... type name "pulumi-nodejs" must start with
// a letter'), updates again with no change, and can be destroyed.
func TestPulumiTokensLoadBack(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	for _, pkg := range []string{"pulumi-nodejs", "azure-native"} {
		h.src.fakes[pkg] = h.fake
	}
	backend := file.New(t.TempDir())
	run := func(what string, op func(base *state.Snapshot, o engine.Options) (*engine.Result, error)) {
		t.Helper()
		s, err := state.Open(ctx, backend, "dev", state.OpenOptions{Command: what, Verify: true})
		if err != nil {
			t.Fatalf("opening the stack for %s: %v", what, err)
		}
		if _, err := op(s.Base(), h.options(s)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	run("up", func(base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Update(ctx, tokenProgram, base, o)
	})
	snap, err := state.Load(ctx, backend, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatalf("the state up wrote does not load: %v", err)
	}
	want := []string{
		"urn:pulumi:dev::proj::azure-native:storage:StorageAccount::sa",
		"urn:pulumi:dev::proj::component$my:module:ComponentSixParent-v10$pkg:index:Thing::leaf",
		"urn:pulumi:dev::proj::component$my:module:ComponentSixParent-v10::inner",
		"urn:pulumi:dev::proj::component::comp",
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource::child",
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10::six",
		"urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::dyn",
		"urn:pulumi:dev::proj::pulumi:providers:azure-native::az",
		"urn:pulumi:dev::proj::pulumi:providers:pkg::default",
		"urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default",
	}
	var got []string
	for _, r := range snap.Resources {
		got = append(got, string(r.URN))
	}
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("URNs recorded (-want +got):\n%s", diff)
	}
	created := len(h.world.ids())
	run("up again", func(base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Update(ctx, tokenProgram, base, o)
	})
	if n := len(h.world.ids()); n != created || created != 4 {
		t.Errorf("%d things exist after the second up, %d after the first; want 4 and no change", n, created)
	}
	run("destroy", func(base *state.Snapshot, o engine.Options) (*engine.Result, error) {
		return engine.Destroy(ctx, base, o)
	})
	if ids := h.world.ids(); len(ids) != 0 {
		t.Errorf("after destroy these still exist: %v", ids)
	}
}

// callLog is a provider that records every call made to it.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(call string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, call)
}

func (l *callLog) fake() *provider.Fake {
	return &provider.Fake{
		CheckConfigF: func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
			l.add("CheckConfig")
			return provider.CheckResponse{Inputs: req.News}, nil
		},
		ConfigureF: func(context.Context, provider.ConfigureRequest) (provider.ConfigureResponse, error) {
			l.add("Configure")
			return provider.ConfigureResponse{}, nil
		},
		CheckF: func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
			l.add("Check " + string(req.URN))
			return provider.CheckResponse{Inputs: req.News}, nil
		},
		CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
			l.add("Create " + string(req.URN))
			return provider.CreateResponse{ID: "id", Outputs: req.Inputs}, nil
		},
		ConstructF: func(_ context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
			l.add("Construct " + req.Type)
			return provider.ConstructResponse{}, nil
		},
	}
}

// TestRegistrationRefusesATokenTheLoaderRefuses: a registration whose
// type (or the URN it makes) the state loader would refuse fails at
// admission with a diagnostic naming the resource and the token, before
// any provider is started or called, and nothing is recorded.
func TestRegistrationRefusesATokenTheLoaderRefuses(t *testing.T) {
	tests := map[string]struct {
		spec spec
		want string // in the error, beside the resource's name and type
	}{
		"custom resource without a package": {spec{name: "x", typ: "Thing"}, "names no package"},
		"URN separator in the type":         {spec{name: "x", typ: "pkg::Thing"}, `holds "::"`},
		"parent separator in the type":      {spec{name: "x", typ: "pkg:index:A$B"}, `holds "$"`},
		"component type ending in a colon":  {spec{name: "x", typ: "my:Comp:", component: true}, `starts or ends with ":"`},
		"control character":                 {spec{name: "x", typ: "pkg:index:\nThing"}, "control character"},
		"remote component without a package": {spec{name: "x", typ: "Widget", component: true,
			opt: func(r *engine.Registration) { r.Remote = true }}, "names no package"},
		"package that is a path": {spec{name: "x", typ: "../../bin/sh:x:Y"}, "names the provider plugin"},
		"provider of no package": {spec{name: "x", typ: "pulumi:providers:"}, `starts or ends with ":"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			var log callLog
			h.src.fakes["pkg"] = log.fake()
			for _, pkg := range []string{"Thing", "pkg::Thing", "Widget", "pulumi", "my", ""} {
				h.src.fakes[pkg] = log.fake()
			}
			_, err := h.up(prog{tc.spec})
			var ite *engine.InvalidTypeError
			if !errors.As(err, &ite) || ite.Name != tc.spec.name || ite.Type != tc.spec.typ {
				t.Fatalf("up: %v, want an *engine.InvalidTypeError for %q of type %q", err, tc.spec.name, tc.spec.typ)
			}
			summary, _, _, detail := ite.Diagnostic()
			for _, s := range []string{tc.want, `"x"`, strconv.Quote(tc.spec.typ)} {
				if !strings.Contains(err.Error(), s) || !strings.Contains(detail, s) {
					t.Errorf("error %q / detail %q does not say %q", err, detail, s)
				}
			}
			if summary != "Invalid resource type" {
				t.Errorf("summary %q", summary)
			}
			if len(log.calls) != 0 || len(h.src.instances) != 0 {
				t.Errorf("providers were started %v and called %q before the registration was refused", h.src.instances, log.calls)
			}
			if len(h.snap.Resources) != 0 || len(h.snap.Pending) != 0 {
				t.Errorf("recorded %d resources and %d pending operations", len(h.snap.Resources), len(h.snap.Pending))
			}
		})
	}
}
