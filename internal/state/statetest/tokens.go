package statetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Token is a type token a front end registers, and which front end does.
type Token struct {
	Type string
	// Custom is set for a resource a provider manages (provider
	// resources included), clear for a component.
	Custom bool
	From   string
}

// Tokens are the type tokens the front ends accept, including every form
// Pulumi's engine accepts that plinth once refused. Each must round-trip
// through every backend (Run), both exports, and the engine.
var Tokens = []Token{
	{"plinth:random:Pet", true, "YAML: a resource of the built-in provider"},
	{"pulumi:providers:plinth", true, "YAML: a default provider"},
	{"random:index:random_pet", true, "Terraform: random_pet"},
	{"google:index:google_compute_address", true, "Terraform: a resource whose provider's name has a hyphen"},
	{"pulumi:providers:google-beta", true, "Terraform: provider \"google-beta\""},
	{"aws:s3/bucket:Bucket", true, "Pulumi: a module with a slash"},
	{"pulumi-nodejs:dynamic:Resource", true, "Pulumi: pulumi.dynamic.Resource"},
	{"pulumi:providers:pulumi-nodejs", true, "Pulumi: a dynamic resource's default provider"},
	{"azure-native:storage:StorageAccount", true, "Pulumi: a hyphenated package"},
	{"pulumi:providers:azure-native", true, "Pulumi: an explicit ProviderResource of a hyphenated package"},
	{"pkg:Thing", true, "plinth: a two-part token, as plinth has always read"},
	{"a:b:c:D", true, "Pulumi: four segments (ParseTypeToken asks for at least three)"},
	{"component", false, `Pulumi: new ComponentResource("component", ...)`},
	{"my:module:ComponentSixParent-v10", false, "Pulumi: a hyphen in a component's type name"},
	{"my component", false, "Pulumi: a component's type may be any string"},
}

// TokenNames are resource names the front ends give, awkward ones
// included: a Terraform instance address, a name holding "::" (the URN's
// name is its rest), spaces and non-ASCII letters.
var TokenNames = []string{"r", `module.a.random_pet.x["k"]`, "a b::c", "réseau-1"}

// TokenResources returns a well-formed state holding a resource of every
// token in Tokens under every name in TokenNames, first at the top and
// then under a component, with a default provider (named "default") for
// each package that has none in Tokens, as the engine records them.
// Parents, providers and dependencies come before what refers to them.
func TokenResources(stack, project string) []*state.Resource {
	var out []*state.Resource
	providers := map[string]string{} // package → provider reference
	addProvider := func(pkg, name string) {
		typ := state.ProviderTypePrefix + pkg
		urn := resource.NewURN(stack, project, "", typ, name)
		out = append(out, &state.Resource{URN: urn, Type: typ, Custom: true, ID: "prov-" + pkg + "-" + name})
		if name == "default" {
			providers[pkg] = state.ProviderRef(urn, "prov-"+pkg+"-"+name)
		}
	}
	for _, tok := range Tokens {
		if pkg, ok := strings.CutPrefix(tok.Type, state.ProviderTypePrefix); ok {
			addProvider(pkg, "default")
		}
	}
	for _, tok := range Tokens {
		if pkg := packageOf(tok.Type); tok.Custom && !state.IsProviderType(tok.Type) && providers[pkg] == "" {
			addProvider(pkg, "default")
		}
	}
	parent := resource.NewURN(stack, project, "", "component", "outer")
	out = append(out, &state.Resource{URN: parent, Type: "component"})
	for i, tok := range Tokens {
		for j, name := range TokenNames {
			for _, p := range []resource.URN{"", parent} {
				r := tokenResource(stack, project, tok, name, p, providers[packageOf(tok.Type)])
				r.ID = fmt.Sprintf("id-%d-%d-%t", i, j, p == "")
				if !r.Custom {
					r.ID = ""
				}
				out = append(out, r)
			}
		}
	}
	return out
}

func tokenResource(stack, project string, tok Token, name string, parent resource.URN, prov string) *state.Resource {
	parentType := ""
	if parent != "" {
		parentType = parent.QualifiedType()
	}
	r := &state.Resource{
		URN: resource.NewURN(stack, project, parentType, tok.Type, name), Type: tok.Type, Custom: tok.Custom,
		Parent: parent, Inputs: resource.Object{"name": resource.NewString(name)},
	}
	if tok.Custom && !state.IsProviderType(tok.Type) {
		r.Provider = prov
	}
	if parent != "" {
		r.Dependencies = []resource.URN{parent}
	}
	return r
}

func packageOf(typ string) string {
	pkg, _, _ := strings.Cut(typ, ":")
	return pkg
}

// identities lists what a resource is known by, for comparisons.
func identities(rs []*state.Resource) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%s type=%q custom=%t id=%s parent=%s provider=%s deps=%v",
			r.URN, r.Type, r.Custom, r.ID, r.Parent, r.Provider, r.Dependencies)
	}
	return out
}

// testTokens writes a resource of every token through two sessions, the
// first compacted into the snapshot and the second left in the journal
// with a pending create, and loads the stack back (with the loader's
// integrity check) after each.
func testTokens(t *testing.T, b state.Backend) {
	ctx := context.Background()
	rs := TokenResources("dev", "proj")
	half := len(rs) / 2
	record(t, b, rs[:half], nil).Close(ctx)
	pending := tokenResource("dev", "proj", Token{Type: "pulumi-nodejs:dynamic:Resource", Custom: true}, "pending", rs[half].Parent, "")
	pending.Provider = rs[half].Provider
	s := record(t, b, rs[half:], pending)
	want := s.Snapshot()
	if diff := cmp.Diff(identities(rs), identities(want.Resources)); diff != "" {
		t.Fatalf("the session's state (-written +recorded):\n%s", diff)
	}
	loadTokens(t, b, want, "snapshot and journal")
	must(t, s.Close(ctx))
	loadTokens(t, b, want, "compacted snapshot")
}

// record opens a session and records rs, each custom resource as a
// create that began and ended, and pending as a create that only began.
func record(t *testing.T, b state.Backend, rs []*state.Resource, pending *state.Resource) *state.Session {
	t.Helper()
	ctx := context.Background()
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "test", Verify: true})
	must(t, err)
	for i, r := range rs {
		step := uint64(i + 1)
		if r.Custom {
			begin := r.Clone()
			begin.ID = ""
			must(t, s.Record(ctx, &state.Entry{Step: step, Kind: state.Begin, Op: state.OpCreate, New: begin}))
			must(t, s.Record(ctx, &state.Entry{Step: step, Kind: state.End, Op: state.OpCreate, New: r}))
			continue
		}
		must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: r}))
	}
	if pending != nil {
		must(t, s.Record(ctx, &state.Entry{Step: uint64(len(rs) + 1), Kind: state.Begin, Op: state.OpCreate, New: pending}))
	}
	return s
}

func loadTokens(t *testing.T, b state.Backend, want *state.Snapshot, what string) {
	t.Helper()
	got, err := state.Load(context.Background(), b, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatalf("loading the %s: %v", what, err)
	}
	if diff := cmp.Diff(identities(want.Resources), identities(got.Resources)); diff != "" {
		t.Errorf("resources loaded from the %s (-recorded +loaded):\n%s", what, diff)
	}
	var wantPending, gotPending []*state.Resource
	for _, p := range want.Pending {
		wantPending = append(wantPending, p.Resource)
	}
	for _, p := range got.Pending {
		gotPending = append(gotPending, p.Resource)
	}
	if diff := cmp.Diff(identities(wantPending), identities(gotPending)); diff != "" || len(gotPending) != 1 {
		t.Errorf("pending operations loaded from the %s (-recorded +loaded):\n%s", what, diff)
	}
}
