package pulumistate

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	presource "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

const phrase = "correct horse"

// pulumiSecret seals a value as Pulumi's own passphrase crypter does.
func pulumiSecret(t *testing.T, c config.Crypter, v any) map[string]any {
	t.Helper()
	plain, _ := json.Marshal(v)
	ct, err := c.EncryptValue(context.Background(), string(plain))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": ct}
}

// deployment builds, with apitype, a deployment holding a provider, a
// component, custom resources, a secret and a pending operation, its
// secrets sealed by Pulumi's passphrase crypter.
func deployment(t *testing.T) []byte {
	t.Helper()
	salt := []byte("saltsalt")
	pc := config.NewSymmetricCrypterFromPassphrase(phrase, salt)
	check, _ := pc.EncryptValue(context.Background(), "pulumi")
	spState, _ := json.Marshal(map[string]string{"salt": "v1:" + base64.StdEncoding.EncodeToString(salt) + ":" + check})
	stack := presource.URN("urn:pulumi:prod::web::pulumi:pulumi:Stack::web-prod")
	prov := presource.URN("urn:pulumi:prod::web::pulumi:providers:random::default")
	comp := presource.URN("urn:pulumi:prod::web::my:index:Site::site")
	pet := presource.URN("urn:pulumi:prod::web::my:index:Site$random:index:RandomPet::pet")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d := apitype.DeploymentV3{
		Manifest:         apitype.ManifestV1{Time: t0, Version: "v3.200.0"},
		SecretsProviders: &apitype.SecretsProvidersV1{Type: "passphrase", State: spState},
		Resources: []apitype.ResourceV3{
			{URN: stack, Type: "pulumi:pulumi:Stack", Outputs: map[string]any{"name": "pet-1", "key": pulumiSecret(t, pc, "k3y")}},
			{URN: prov, Custom: true, ID: "prov-id", Type: "pulumi:providers:random", Inputs: map[string]any{}, Outputs: map[string]any{}},
			{URN: comp, Type: "my:index:Site", Parent: stack},
			{URN: pet, Custom: true, ID: "pet-1", Type: "random:index:RandomPet", Parent: comp, Provider: string(prov) + "::prov-id",
				Inputs: map[string]any{"length": 2}, Outputs: map[string]any{"id": "pet-1", "length": 2, "pw": pulumiSecret(t, pc, "s3cret")},
				Dependencies: []presource.URN{comp}, Protect: true, Taint: true, RetainOnDelete: true,
				IgnoreChanges: []string{"length"}, ReplaceOnChanges: []string{"prefix"},
				PropertyDependencies: map[presource.PropertyKey][]presource.URN{"length": {comp}},
				CustomTimeouts:       &presource.CustomTimeouts{Create: 60, Delete: 30},
				DeletedWith:          comp, AdditionalSecretOutputs: []presource.PropertyKey{"length"}},
			{URN: "urn:pulumi:prod::web::random:index:RandomPet::read", Custom: true, ID: "pet-0", Type: "random:index:RandomPet",
				Parent: stack, Provider: string(prov) + "::prov-id", External: true, Outputs: map[string]any{"id": "pet-0"}},
		},
		PendingOperations: []apitype.OperationV2{{Type: apitype.OperationTypeCreating,
			Resource: apitype.ResourceV3{URN: "urn:pulumi:prod::web::random:index:RandomPet::new", Custom: true, Type: "random:index:RandomPet",
				Inputs: map[string]any{"length": 3}}}},
	}
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(apitype.UntypedDeployment{Version: 3, Deployment: raw})
	return out
}

// TestRoundTrip: a deployment built with apitype is adopted (secrets
// opened with the passphrase) and exported again; it equals the input once
// ciphertexts are opened and the manifest set aside.
func TestRoundTrip(t *testing.T) {
	in := deployment(t)
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	snap, notes, err := ToSnapshot(d, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) > 0 {
		t.Errorf("adoption left out fields of a deployment plinth maps whole: %v", notes)
	}
	if got := snap.Outputs["key"]; !got.IsSecret() || got.SecretElement().Str() != "k3y" {
		t.Errorf("stack output key = %v", got)
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "s3cret") {
		t.Errorf("the export holds a secret in plain text")
	}
	if diff := cmp.Diff(normalise(t, in), normalise(t, out)); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
}

// normalise decodes a deployment with apitype, opens its secrets (with
// the passphrase, through Pulumi's crypter) and drops what differs by
// nature: the manifest and the secrets provider's salt.
func normalise(t *testing.T, data []byte) apitype.DeploymentV3 {
	t.Helper()
	var u apitype.UntypedDeployment
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	var s struct{ Salt string }
	_ = json.Unmarshal(d.SecretsProviders.State, &s)
	salt, _ := base64.StdEncoding.DecodeString(strings.Split(s.Salt, ":")[1])
	pc := config.NewSymmetricCrypterFromPassphrase(phrase, salt)
	open := func(m map[string]any) {
		for k, v := range m {
			if sec, ok := v.(map[string]any); ok && sec["ciphertext"] != nil {
				plain, err := pc.DecryptValue(context.Background(), sec["ciphertext"].(string))
				if err != nil {
					t.Fatalf("Pulumi's crypter cannot open %s: %v", k, err)
				}
				m[k] = "secret:" + plain
			}
		}
	}
	for i := range d.Resources {
		open(d.Resources[i].Inputs)
		open(d.Resources[i].Outputs)
		if len(d.Resources[i].Inputs) == 0 {
			d.Resources[i].Inputs = nil
		}
		if len(d.Resources[i].Outputs) == 0 {
			d.Resources[i].Outputs = nil
		}
	}
	d.Manifest, d.SecretsProviders = apitype.ManifestV1{}, nil
	return d
}

// TestRefused: unknown versions, dangling references, duplicate URNs and
// a missing or wrong passphrase are refused, each saying so.
func TestRefused(t *testing.T) {
	good := deployment(t)
	var u apitype.UntypedDeployment
	_ = json.Unmarshal(good, &u)
	edit := func(f func(d *apitype.DeploymentV3)) []byte {
		var d apitype.DeploymentV3
		_ = json.Unmarshal(u.Deployment, &d)
		f(&d)
		raw, _ := json.Marshal(d)
		out, _ := json.Marshal(apitype.UntypedDeployment{Version: 3, Deployment: raw})
		return out
	}
	full := Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true}
	cases := map[string]struct {
		data   []byte
		target Target
		want   string
	}{
		"version 5": {data: []byte(`{"version": 5, "deployment": {}}`), target: full, want: "version 5; plinth reads versions 3 and 4"},
		"byteString feature": {data: []byte(`{"version": 4, "features": ["taint", "byteString"], "deployment": {}}`), target: full,
			want: "needs the deployment features byteString, which plinth does not know"},
		"not a deployment": {data: []byte(`{"resources": []}`), target: full, want: "not a Pulumi deployment"},
		"dangling": {data: edit(func(d *apitype.DeploymentV3) {
			d.Resources[3].Dependencies = []presource.URN{"urn:pulumi:prod::web::x:index:Y::gone"}
		}),
			target: full, want: "names urn:pulumi:prod::web::x:index:Y::gone as its dependency, which the deployment does not hold"},
		"misordered": {data: edit(func(d *apitype.DeploymentV3) {
			d.Resources[3].Dependencies = []presource.URN{d.Resources[len(d.Resources)-1].URN}
		}),
			target: full, want: "does not appear before it"},
		"duplicate URN": {data: edit(func(d *apitype.DeploymentV3) { d.Resources = append(d.Resources, d.Resources[3]) }),
			target: full, want: "appears twice"},
		"no passphrase":    {data: good, target: Target{Stack: "prod", Project: "web"}, want: "set PULUMI_CONFIG_PASSPHRASE"},
		"wrong passphrase": {data: good, target: Target{Stack: "prod", Project: "web", Passphrase: "nope", HasPassphrase: true}, want: "is not the passphrase"},
		"cloud secrets": {data: edit(func(d *apitype.DeploymentV3) { d.SecretsProviders.Type = "service" }),
			target: full, want: `"service" secrets provider`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := Parse(c.data)
			if err == nil {
				_, _, err = ToSnapshot(d, c.target)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want it to say %q", err, c.want)
			}
		})
	}
}

// TestExportManifestMagic: the manifest's magic cookie is the hex SHA-256
// of its version, as Pulumi's deploy.Manifest.NewMagic computes it; with
// any other cookie `pulumi stack import` refuses the file ("magic cookie
// mismatch; possible tampering/corruption detected"). e2e/pulumicli
// checks the same with the real CLI.
func TestExportManifestMagic(t *testing.T) {
	d, err := Parse(deployment(t))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(d, Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true})
	if err != nil {
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
	var u apitype.UntypedDeployment
	var got apitype.DeploymentV3
	if err := json.Unmarshal(out, &u); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(u.Deployment, &got); err != nil {
		t.Fatal(err)
	}
	m := got.Manifest
	if want := fmt.Sprintf("%x", sha256.Sum256([]byte(m.Version))); m.Version == "" || m.Magic != want {
		t.Errorf("manifest version %q, magic %q; want a version and magic %q", m.Version, m.Magic, want)
	}
}

// TestTaintFeature: as `pulumi stack export` does, an export with a
// tainted resource is of version 4 and declares the feature "taint" (an
// older pulumi then refuses it instead of dropping the taint), one
// without is of version 3; and plinth adopts such a version-4 deployment
// with the taint, as pulumi writes it back.
func TestTaintFeature(t *testing.T) {
	full := Target{Stack: "prod", Project: "web", Passphrase: phrase, HasPassphrase: true}
	d, err := Parse(deployment(t))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(d, full)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	header := func() apitype.UntypedDeployment {
		out, err := FromSnapshot(snap, p, time.Now(), ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var u apitype.UntypedDeployment
		if err := json.Unmarshal(out, &u); err != nil {
			t.Fatal(err)
		}
		d, err := Parse(out)
		if err == nil {
			_, _, err = ToSnapshot(d, full)
		}
		if err != nil {
			t.Errorf("plinth cannot adopt its own export of version %d: %v", u.Version, err)
		}
		return apitype.UntypedDeployment{Version: u.Version, Features: u.Features}
	}
	if diff := cmp.Diff(apitype.UntypedDeployment{Version: 4, Features: []string{"taint"}}, header()); diff != "" {
		t.Errorf("export with a tainted resource (-want +got):\n%s", diff)
	}
	for _, r := range snap.Resources {
		r.Tainted = false
	}
	if diff := cmp.Diff(apitype.UntypedDeployment{Version: 3}, header()); diff != "" {
		t.Errorf("export without a tainted resource (-want +got):\n%s", diff)
	}
}
