package terraform

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestNewIsValid(t *testing.T) {
	if New(t.TempDir()) == nil {
		t.Fatal("New returned nil")
	}
}

func TestDataLifecycle(t *testing.T) {
	ctx := context.Background()
	in := DataArgs{Input: resource.NewString("a"), TriggersReplace: resource.NewString("t")}
	created, err := Data{}.Create(ctx, provider.CreateOp[DataArgs]{Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(created.ID) || created.Outputs.ID != created.ID {
		t.Errorf("id %q (outputs %q) is not a random UUID", created.ID, created.Outputs.ID)
	}
	if !created.Outputs.Output.Equal(in.Input) {
		t.Errorf("output = %v, want the input", created.Outputs.Output)
	}
	planned, _ := Data{}.PreviewCreate(ctx, provider.CreateOp[DataArgs]{Inputs: in, Preview: true})
	if diff := cmp.Diff([]string{"id", "output"}, planned.Unknowns); diff != "" {
		t.Errorf("a new terraform_data's id and output are known after apply, as terraform plans them, even with a known input (-want +got):\n%s", diff)
	}
	news := DataArgs{Input: resource.NewString("b"), TriggersReplace: in.TriggersReplace}
	preview, _ := Data{}.PreviewUpdate(ctx, provider.UpdateOp[DataArgs, DataState]{ID: created.ID, OldInputs: in, OldOutputs: created.Outputs, News: news, Preview: true})
	if diff := cmp.Diff([]string{"output"}, preview.Unknowns); diff != "" {
		t.Errorf("a changed input must make output unknown in the plan (-want +got):\n%s", diff)
	}
	same, _ := Data{}.PreviewUpdate(ctx, provider.UpdateOp[DataArgs, DataState]{ID: created.ID, OldInputs: in, OldOutputs: created.Outputs, News: in, Preview: true})
	if len(same.Unknowns) != 0 {
		t.Errorf("an unchanged input left output unknown: %v", same.Unknowns)
	}
	updated, _ := Data{}.Update(ctx, provider.UpdateOp[DataArgs, DataState]{ID: created.ID, OldInputs: in, OldOutputs: created.Outputs, News: news, Secrets: []string{"input"}})
	if updated.Outputs.ID != created.ID || updated.Outputs.Output.Str() != "b" || !cmp.Equal(updated.Secrets, []string{"output"}) {
		t.Errorf("update = %+v, want the same id, output b, output secret", updated)
	}
}

const stateFile = `{"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "l",
 "outputs": {"name": {"value": "alpha", "type": "string"}, "ports": {"value": [80, 443], "type": ["tuple", ["number", "number"]]},
  "pw": {"value": "s3cret", "type": "string", "sensitive": true}}, "resources": []}`

func TestRemoteState(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("terraform.tfstate", stateFile)
	write("other/net.tfstate", strings.Replace(stateFile, "alpha", "beta", 1))
	write("terraform.tfstate.d/prod/terraform.tfstate", strings.Replace(stateFile, "alpha", "prod", 1))
	write("old.tfstate", `{"version": 3}`)
	cfg := func(kv ...any) resource.Value { return resource.MustFromGo(mapOf(kv...)) }
	cases := map[string]struct {
		args    RemoteStateArgs
		name    string
		wantErr string
	}{
		"default path":     {args: RemoteStateArgs{Backend: "local"}, name: "alpha"},
		"config path":      {args: RemoteStateArgs{Backend: "local", Config: cfg("path", "other/net.tfstate")}, name: "beta"},
		"workspace":        {args: RemoteStateArgs{Backend: "local", Workspace: "prod"}, name: "prod"},
		"missing file":     {args: RemoteStateArgs{Backend: "local", Config: cfg("path", "nope.tfstate"), Defaults: cfg("name", "dflt")}, wantErr: "unable to find remote state"},
		"defaults lose":    {args: RemoteStateArgs{Backend: "local", Defaults: cfg("name", "dflt"), Config: cfg("path", "terraform.tfstate")}, name: "alpha"},
		"defaults fill in": {args: RemoteStateArgs{Backend: "local", Defaults: cfg("name", "dflt", "zone", "z")}, name: "alpha"},
		"remote backend":   {args: RemoteStateArgs{Backend: "s3"}, wantErr: `backend "s3" is not supported`},
		"old format":       {args: RemoteStateArgs{Backend: "local", Config: cfg("path", "old.tfstate")}, wantErr: "state format version 3"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := remoteState(dir)(context.Background(), c.args)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := got.Outputs.Object()["name"].Str(); n != c.name {
				t.Errorf("outputs.name = %q, want %q (outputs %v)", n, c.name, got.Outputs)
			}
		})
	}
}

func mapOf(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// TestDataReplacesDeleteFirst: a change of triggers_replace replaces
// terraform_data destroying it first, as terraform does (the engine makes
// it create first when the resource sets create_before_destroy).
func TestDataReplacesDeleteFirst(t *testing.T) {
	p := New(t.TempDir())
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		t.Fatal(err)
	}
	urn := resource.NewURN("dev", "p", "", DataType, "terraform_data.a")
	olds := resource.Object{"input": resource.NewString("a"), "triggers_replace": resource.NewString("t1")}
	outs := olds.Copy()
	outs["output"], outs["id"] = resource.NewString("a"), resource.NewString("x")
	cases := map[string]struct {
		news         resource.Object
		replace, dbr bool
	}{
		"trigger changed": {resource.Object{"input": resource.NewString("a"), "triggers_replace": resource.NewString("t2")}, true, true},
		"input changed":   {resource.Object{"input": resource.NewString("b"), "triggers_replace": resource.NewString("t1")}, false, false},
	}
	for name, tc := range cases {
		resp, err := p.Diff(context.Background(), provider.DiffRequest{URN: urn, ID: "x", OldInputs: olds, OldOutputs: outs, News: tc.news})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Replaces() != tc.replace || resp.DeleteBeforeReplace != tc.dbr {
			t.Errorf("%s: replace %v, delete first %v; want %v, %v", name, resp.Replaces(), resp.DeleteBeforeReplace, tc.replace, tc.dbr)
		}
	}
}
