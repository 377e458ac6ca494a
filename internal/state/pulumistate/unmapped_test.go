package pulumistate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	presource "github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/plinth-iac/plinth/internal/state"
)

// jsonNames lists the JSON names of a struct type's fields, inlining
// embedded structs as encoding/json does.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// TestEveryFieldAccountedFor: every field of Pulumi's ResourceV3 is
// either mapped, refused or noted, so that a field Pulumi adds is not
// dropped silently: this test fails until it is given one of those fates.
func TestEveryFieldAccountedFor(t *testing.T) {
	known := map[string]bool{}
	for _, n := range jsonNames(reflect.TypeOf(Resource{})) {
		known[n] = true
	}
	var missing []string
	for _, n := range jsonNames(reflect.TypeOf(apitype.ResourceV3{})) {
		if !known[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("fields of apitype.ResourceV3 plinth neither maps nor refuses nor notes: %v", missing)
	}
	for _, n := range jsonNames(reflect.TypeOf(Unmapped{})) {
		_, refused := refusedFields[n]
		noted := false
		for _, m := range notedFields {
			noted = noted || m == n
		}
		if refused == noted {
			t.Errorf("unmapped field %s must be either refused or noted (refused %v, noted %v)", n, refused, noted)
		}
	}
}

// TestUnmappedFields: a field plinth cannot honour is refused, naming it
// and the resource; one it drops is named in a note.
func TestUnmappedFields(t *testing.T) {
	var u apitype.UntypedDeployment
	_ = json.Unmarshal(deployment(t), &u)
	cases := map[string]struct {
		edit      func(r *apitype.ResourceV3)
		wantErr   string
		wantNotes []string
	}{
		"pendingReplacement": {edit: func(r *apitype.ResourceV3) { r.PendingReplacement = true }, wantErr: "run `pulumi up` to finish it"},
		"replacementTrigger": {edit: func(r *apitype.ResourceV3) { r.ReplacementTrigger = "v1" }, wantErr: "has replacementTrigger set"},
		"viewOf":             {edit: func(r *apitype.ResourceV3) { r.ViewOf = "urn:pulumi:prod::web::my:index:Site::site" }, wantErr: "has viewOf set"},
		"importID and aliases": {edit: func(r *apitype.ResourceV3) {
			r.ImportID, r.Aliases = "pet-1", []presource.URN{"urn:pulumi:prod::web::random:index:RandomPet::old"}
		},
			wantNotes: []string{"importID (on 1 resource) is left out", "aliases (on 1 resource) is left out"}},
		"source position": {edit: func(r *apitype.ResourceV3) { r.SourcePosition = "project:///index.ts#3,1" },
			wantNotes: []string{"sourcePosition (on 1 resource) is left out"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var d apitype.DeploymentV3
			_ = json.Unmarshal(u.Deployment, &d)
			c.edit(&d.Resources[3])
			raw, _ := json.Marshal(d)
			data, _ := json.Marshal(apitype.UntypedDeployment{Version: 3, Deployment: raw})
			parsed, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			_, notes, err := ToSnapshot(parsed, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("error = %v, want it to say %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range notes {
				got = append(got, n[:strings.Index(n, ":")])
			}
			if diff := cmp.Diff(c.wantNotes, got); diff != "" {
				t.Errorf("notes (-want +got):\n%s\nall: %v", diff, notes)
			}
		})
	}
}

// TestResourceHooksMoveBothWays: a Pulumi stack whose resource records
// hooks is adopted with its delete hooks (before, after, onError) kept,
// those the program binds again on every run (create, update) left out,
// and exported with the delete hooks as Pulumi records them. Before,
// adoption refused a resource with hooks.
func TestResourceHooksMoveBothWays(t *testing.T) {
	var u apitype.UntypedDeployment
	_ = json.Unmarshal(deployment(t), &u)
	var d apitype.DeploymentV3
	_ = json.Unmarshal(u.Deployment, &d)
	d.Resources[3].ResourceHooks = map[presource.HookType][]string{
		presource.BeforeDelete: {"drain"}, presource.AfterDelete: {"notify"}, presource.OnError: {"again"}, presource.BeforeCreate: {"check"},
	}
	raw, _ := json.Marshal(d)
	data, _ := json.Marshal(apitype.UntypedDeployment{Version: 3, Deployment: raw})
	parsed, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(parsed, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
		t.Fatal(err)
	}
	urn := string(d.Resources[3].URN)
	var got state.DeleteHooks
	for _, r := range snap.Resources {
		if string(r.URN) == urn {
			got = r.DeleteHooks
		}
	}
	if diff := cmp.Diff(state.DeleteHooks{Before: []string{"drain"}, After: []string{"notify"}, OnError: []string{"again"}}, got); diff != "" {
		t.Errorf("adopted delete hooks (-want +got):\n%s", diff)
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exported := normalise(t, out)
	want := map[presource.HookType][]string{presource.BeforeDelete: {"drain"}, presource.AfterDelete: {"notify"}, presource.OnError: {"again"}}
	for _, r := range exported.Resources {
		if string(r.URN) == urn {
			if diff := cmp.Diff(want, r.ResourceHooks); diff != "" {
				t.Errorf("exported resourceHooks (-want +got):\n%s", diff)
			}
		}
	}
}
