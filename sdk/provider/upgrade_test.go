package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

type noteArgs struct {
	Title string `plinth:"title"`
}

// note is at schema version 2: version 1 called title "name".
type note struct{ panics bool }

func (note) Create(_ context.Context, op provider.CreateOp[noteArgs]) (provider.CreateResult[noteArgs], error) {
	return provider.CreateResult[noteArgs]{ID: op.Inputs.Title, Outputs: op.Inputs}, nil
}

func (note) SchemaVersion() int64 { return 2 }

func (n note) UpgradeState(_ context.Context, op provider.UpgradeStateOp) (provider.UpgradeStateResult, error) {
	if n.panics {
		panic("torn page")
	}
	st := op.State.Copy()
	st["title"], st["name"] = st["name"], resource.Null()
	delete(st, "name")
	return provider.UpgradeStateResult{State: st}, nil
}

func TestUpgradeState(t *testing.T) {
	urn := resource.NewURN("dev", "proj", "", "notes:index:Note", "n")
	old := resource.Object{"name": resource.NewString("x")}
	cur := resource.Object{"title": resource.NewString("x")}
	cases := map[string]struct {
		panics  bool
		version int64
		state   resource.Object
		want    resource.Object
		wantErr string
	}{
		"current": {version: 2, state: cur, want: cur},
		"older":   {version: 1, state: old, want: cur},
		"newer":   {version: 3, state: cur, wantErr: "newer than this provider's 2"},
		"panic":   {panics: true, version: 1, state: old, wantErr: "panicked in UpgradeState"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := provider.New(provider.Info{Name: "notes"},
				provider.WithResource[noteArgs, noteArgs]("notes:index:Note", note{panics: tc.panics}, ""))
			if err != nil {
				t.Fatal(err)
			}
			sch, _ := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
			if v := sch.Schema.Resources["notes:index:Note"].Version; v != 2 {
				t.Errorf("schema version = %d, want 2", v)
			}
			resp, err := p.(provider.StateUpgradeProvider).UpgradeState(context.Background(),
				provider.UpgradeStateRequest{URN: urn, Version: tc.version, State: tc.state})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want one saying %q", err, tc.wantErr)
				}
				var pe *provider.PanicError
				if tc.panics && !errors.As(err, &pe) {
					t.Errorf("a panic should be a PanicError: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want.Keys(), resp.State.Keys()); diff != "" || !resp.State.Equal(tc.want) {
				t.Errorf("upgraded state %v, want %v", resp.State, tc.want)
			}
		})
	}
}
