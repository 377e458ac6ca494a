package clitest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

// OpenDeployment decodes a Pulumi deployment (what `pulumi stack export`
// and `plinth state export --format pulumi` write) with Pulumi's own
// types, opens its secrets with Pulumi's passphrase crypter (the file's
// salt, passphrase) into "secret:" and their plaintext, and drops what
// differs by nature between two exports of one stack: the manifest, the
// secrets provider's state and pulumi's metadata. Two exports of the same
// resources then compare equal with cmp.Diff.
func OpenDeployment(t testing.TB, data []byte, passphrase string) apitype.DeploymentV3 {
	t.Helper()
	var u apitype.UntypedDeployment
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatalf("not a deployment: %v\n%s", err, data)
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Resources) == 0 && d.SecretsProviders == nil {
		d.Manifest, d.Metadata = apitype.ManifestV1{}, apitype.SnapshotMetadataV1{}
		return d
	}
	if d.SecretsProviders == nil || d.SecretsProviders.Type != "passphrase" {
		t.Fatalf("secrets provider %+v, want passphrase", d.SecretsProviders)
	}
	pc := crypter(t, d.SecretsProviders.State, passphrase)
	for i := range d.Resources {
		d.Resources[i].Inputs = openAll(t, pc, d.Resources[i].Inputs)
		d.Resources[i].Outputs = openAll(t, pc, d.Resources[i].Outputs)
	}
	for i := range d.PendingOperations {
		r := &d.PendingOperations[i].Resource
		r.Inputs, r.Outputs = openAll(t, pc, r.Inputs), openAll(t, pc, r.Outputs)
	}
	d.Manifest, d.SecretsProviders, d.Metadata = apitype.ManifestV1{}, nil, apitype.SnapshotMetadataV1{}
	return d
}

// crypter is Pulumi's passphrase crypter for a secrets provider state.
func crypter(t testing.TB, state json.RawMessage, passphrase string) config.Crypter {
	t.Helper()
	var s struct{ Salt string }
	if err := json.Unmarshal(state, &s); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(s.Salt, ":")
	salt, err := base64.StdEncoding.DecodeString(parts[min(1, len(parts)-1)])
	if err != nil || len(parts) < 2 {
		t.Fatalf("secrets provider salt %q: %v", s.Salt, err)
	}
	return config.NewSymmetricCrypterFromPassphrase(passphrase, salt)
}

// openAll replaces every secret in a property map, at any depth, by
// "secret:" and its plaintext; empty maps become nil.
func openAll(t testing.TB, c config.Crypter, m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return openSecrets(t, c, m).(map[string]any)
}

func openSecrets(t testing.TB, c config.Crypter, v any) any {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		if ct, ok := v["ciphertext"].(string); ok && v["4dabf18193072939515e22adb298388d"] == "1b47061264138c4ac30d75fd1eb44270" {
			plain, err := c.DecryptValue(context.Background(), ct)
			if err != nil {
				t.Fatalf("Pulumi's crypter cannot open a secret with the passphrase: %v", err)
			}
			return "secret:" + plain
		}
		out := map[string]any{}
		for k, e := range v {
			out[k] = openSecrets(t, c, e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = openSecrets(t, c, e)
		}
		return out
	}
	return v
}
