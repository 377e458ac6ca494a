package pulumistate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestExportSecretID: Pulumi's deployment holds a resource's ID only as
// a plain string, so an ID plinth's state holds sealed (derived from a
// secret) cannot be sealed there: the export refuses, naming the
// resource and not the ID, for a recorded resource and for a pending
// one; with PlaintextIDs it writes the ID, which pulumi reads, and keeps
// every output repeating it sealed.
func TestExportSecretID(t *testing.T) {
	const secretID = "db-hunter2-1"
	prov := &state.Resource{URN: "urn:pulumi:dev::p::pulumi:providers:pkg::default", Type: "pulumi:providers:pkg", Custom: true, ID: "prov-1", Inputs: resource.Object{}, Outputs: resource.Object{}}
	db := func() *state.Resource {
		return &state.Resource{URN: "urn:pulumi:dev::p::pkg:index:Db::db", Type: "pkg:index:Db", Custom: true, ID: secretID, SecretID: true,
			Provider: state.ProviderRef(prov.URN, prov.ID),
			Inputs:   resource.Object{"name": resource.MakeSecret(resource.NewString("hunter2"))},
			Outputs:  resource.Object{"id": resource.MakeSecret(resource.NewString(secretID))}}
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	for name, snap := range map[string]*state.Snapshot{
		"recorded": {Resources: []*state.Resource{prov, db()}},
		"pending":  {Resources: []*state.Resource{prov}, Pending: []state.PendingOperation{{Op: state.OpDelete, Resource: db(), Started: time.Now()}}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
			var se *SecretIDError
			if !errors.As(err, &se) {
				t.Fatalf("export of a secret ID: %v, want a SecretIDError", err)
			}
			if diff := cmp.Diff([]resource.URN{"urn:pulumi:dev::p::pkg:index:Db::db"}, se.URNs); diff != "" {
				t.Errorf("refused URNs (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "--plaintext-ids") {
				t.Errorf("the refusal shows the ID or says not what to do: %v", err)
			}

			out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{PlaintextIDs: true})
			if err != nil {
				t.Fatal(err)
			}
			var u apitype.UntypedDeployment
			var d apitype.DeploymentV3
			if err := json.Unmarshal(out, &u); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(u.Deployment, &d); err != nil {
				t.Fatalf("pulumi's apitype cannot read the export: %v", err)
			}
			ids := []string{}
			for _, r := range d.Resources {
				ids = append(ids, string(r.ID))
			}
			for _, op := range d.PendingOperations {
				ids = append(ids, string(op.Resource.ID))
			}
			if !strings.Contains(strings.Join(ids, " "), secretID) {
				t.Errorf("IDs %v: the ID was not written with PlaintextIDs", ids)
			}
			if n := strings.Count(string(out), secretID); n != 1 {
				t.Errorf("the export holds the ID %d times in the clear, want once (the id field; outputs sealed):\n%s", n, out)
			}
			if strings.Contains(string(out), `"hunter2`) {
				t.Errorf("the export holds the secret input in the clear:\n%s", out)
			}
		})
	}
}
