package yaml

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// nameIDSource's provider makes each resource's ID from its "name" input.
type nameIDSource struct{}

func (nameIDSource) NewProvider(context.Context, engine.ProviderRequest) (provider.Provider, error) {
	return &provider.Fake{CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		name, _ := req.Inputs["name"].Unsecret()
		return provider.CreateResponse{ID: "id-" + name.Str(), Outputs: req.Inputs}, nil
	}}, nil
}

// TestIDFromASecretIsSecretInTheProgram: ${r.id} of a resource whose ID
// was made from a secret input is a secret value.
func TestIDFromASecretIsSecretInTheProgram(t *testing.T) {
	p := mustParse(t, `
name: sid
resources:
  db:
    type: fake:index:Db
    properties: { name: { fn::secret: hunter2 } }
  plain:
    type: fake:index:Db
    properties: { name: visible }
outputs:
  dbID: ${db.id}
  plainID: ${plain.id}
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := state.NewMemoryJournal(nil, state.VerifyEach(t))
	res, err := engine.Update(context.Background(), ev, &state.Snapshot{}, engine.Options{Stack: "dev", Project: "sid", Providers: nameIDSource{}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Outputs["dbID"]; !v.IsSecret() || v.SecretElement().Str() != "id-hunter2" {
		t.Errorf("dbID = %v, want the secret id-hunter2", v)
	}
	if v := res.Outputs["plainID"]; v.IsSecret() || v.Str() != "id-visible" {
		t.Errorf("plainID = %v, want the plain id-visible", v)
	}
}
