package pulumistate

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	presource "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/statetest"
)

// dynamicDeployment is what `pulumi stack export` writes for the issue's
// program: a pulumi.dynamic.Resource with its default provider
// pulumi:providers:pulumi-nodejs, a component with a hyphen in its type
// name and one with a one-segment type, and an explicit ProviderResource
// of azure-native with a resource. The default provider has no parent,
// the explicit one the stack, as pulumi records them.
func dynamicDeployment(t *testing.T) []byte {
	t.Helper()
	salt := []byte("saltsalt")
	pc := config.NewSymmetricCrypterFromPassphrase(phrase, salt)
	check, _ := pc.EncryptValue(context.Background(), "pulumi")
	spState, _ := json.Marshal(map[string]string{"salt": "v1:" + base64.StdEncoding.EncodeToString(salt) + ":" + check})
	const p = "urn:pulumi:prod::web::"
	stack := presource.URN(p + "pulumi:pulumi:Stack::web-prod")
	nodejs := presource.URN(p + "pulumi:providers:pulumi-nodejs::default")
	six := presource.URN(p + "my:module:ComponentSixParent-v10::six")
	comp := presource.URN(p + "component::comp")
	az := presource.URN(p + "pulumi:providers:azure-native::az")
	d := apitype.DeploymentV3{
		Manifest:         apitype.ManifestV1{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Version: "v3.200.0"},
		SecretsProviders: &apitype.SecretsProvidersV1{Type: "passphrase", State: spState},
		Resources: []apitype.ResourceV3{
			{URN: stack, Type: "pulumi:pulumi:Stack"},
			{URN: nodejs, Custom: true, ID: "n-1", Type: "pulumi:providers:pulumi-nodejs"},
			{URN: six, Type: "my:module:ComponentSixParent-v10", Parent: stack},
			{URN: p + "my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource::dyn", Custom: true, ID: "d-1",
				Type: "pulumi-nodejs:dynamic:Resource", Parent: six, Provider: string(nodejs) + "::n-1",
				Inputs: map[string]any{"__provider": "exports.handler = ..."}, Outputs: map[string]any{"x": "1"}},
			{URN: comp, Type: "component", Parent: stack},
			{URN: p + "component$my:module:ComponentSixParent-v10::inner", Type: "my:module:ComponentSixParent-v10", Parent: comp},
			{URN: az, Custom: true, ID: "a-1", Type: "pulumi:providers:azure-native", Parent: stack},
			{URN: p + "azure-native:storage:StorageAccount::sa", Custom: true, ID: "sa-1", Type: "azure-native:storage:StorageAccount",
				Parent: stack, Provider: string(az) + "::a-1", Dependencies: []presource.URN{az}},
		},
	}
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(apitype.UntypedDeployment{Version: 3, Deployment: raw})
	return out
}

// TestAdoptDynamicProviderStack: `plinth state adopt` of the issue's
// stack gives a snapshot the loader accepts (it was refused: type name
// "pulumi-nodejs" must start with a letter ...), and exporting it gives
// the deployment back.
func TestAdoptDynamicProviderStack(t *testing.T) {
	in := dynamicDeployment(t)
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(d, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
		t.Fatalf("adopt: %v", err)
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalise(t, in), normalise(t, out)); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
}

// TestEveryTokenRoundTrips: a state holding every token a front end
// accepts, under awkward names, exports as a Pulumi deployment and is
// adopted back the same.
func TestEveryTokenRoundTrips(t *testing.T) {
	snap := &state.Snapshot{Resources: statetest.TokenResources("dev", "proj")}
	if err := snap.Verify(); err != nil {
		t.Fatal(err)
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := ToSnapshot(d, Target{Stack: "dev", Project: "proj", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
		t.Fatalf("adopting the export: %v", err)
	}
	if diff := cmp.Diff(identities(snap), identities(back)); diff != "" {
		t.Errorf("round trip (-exported +adopted):\n%s", diff)
	}
}

func identities(s *state.Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		out = append(out, fmt.Sprintf("%s type=%q custom=%t id=%s parent=%s provider=%s", r.URN, r.Type, r.Custom, r.ID, r.Parent, r.Provider))
	}
	return out
}
