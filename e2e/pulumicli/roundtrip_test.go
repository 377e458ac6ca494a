//go:build unix

package pulumicli_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

// TestRoundTripThroughPulumi: a stack plinth made (a component parenting
// a protected resource, dependencies, a secret input and a secret stack
// output) is exported for Pulumi; `pulumi stack import` accepts it and
// `pulumi stack export` gives back the same resources and secret values
// (re-sealed with the same passphrase); plinth adopts that into a fresh
// backend, where a preview of the same program finds nothing to change
// and a new export equals the first.
func TestRoundTripThroughPulumi(t *testing.T) {
	w := newWorld(t, "roundtrip")
	w.plinth("up", "--yes")
	first := []byte(w.plinth("state", "export", "--format", "pulumi").Stdout)
	w.write(w.file("plinth.json"), string(first))

	checkCovers(t, normalise(t, first))

	w.mustPulumi("stack", "import", "--file", w.file("plinth.json"))
	w.mustPulumi("stack", "export", "--file", w.file("pulumi.json"))
	back := w.read(w.file("pulumi.json"))
	if diff := cmp.Diff(normalise(t, first), normalise(t, back)); diff != "" {
		t.Errorf("pulumi stack export after import (-plinth +pulumi):\n%s", diff)
	}
	if out := w.mustPulumi("stack", "output", "number", "--show-secrets"); strings.TrimSpace(out) != strings.TrimSpace(w.plinth("stack", "output", "number", "--show-secrets").Stdout) {
		t.Errorf("pulumi stack output number = %q, plinth's = %q", out, w.plinth("stack", "output", "number", "--show-secrets").Stdout)
	}

	// A fresh backend for the same stack and program: same URNs, same
	// provider root.
	w.env["PLINTH_BACKEND"] = "file:" + w.file("plinth-adopted")
	w.plinth("stack", "init", "dev")
	w.plinth("state", "adopt", "--format", "pulumi", w.file("pulumi.json"))
	if r := w.tryPlinth(w.env, "preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("preview after adopting pulumi's export: exit %d, want 0 (no changes)\n%s", r.Code, r.Output())
	}
	again := []byte(w.plinth("state", "export", "--format", "pulumi").Stdout)
	if diff := cmp.Diff(normalise(t, first), normalise(t, again)); diff != "" {
		t.Errorf("export after adopting pulumi's export (-first +again):\n%s", diff)
	}
}

// normalise decodes a deployment with apitype, opens its secrets with
// Pulumi's own passphrase crypter (each file's salt, the test's
// passphrase), and drops what differs by nature: the manifest, the
// secrets provider's state and pulumi's metadata.
func normalise(t *testing.T, data []byte) apitype.DeploymentV3 {
	t.Helper()
	var u apitype.UntypedDeployment
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatalf("not a deployment: %v\n%s", err, data)
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	if d.SecretsProviders == nil || d.SecretsProviders.Type != "passphrase" {
		t.Fatalf("secrets provider %+v, want passphrase", d.SecretsProviders)
	}
	pc := crypter(t, d.SecretsProviders.State)
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
func crypter(t *testing.T, state json.RawMessage) config.Crypter {
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
func openAll(t *testing.T, c config.Crypter, m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return open(t, c, m).(map[string]any)
}

func open(t *testing.T, c config.Crypter, v any) any {
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
			out[k] = open(t, c, e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = open(t, c, e)
		}
		return out
	}
	return v
}

// checkCovers fails unless the export holds what the round trip is
// meant to take through pulumi, so that the comparison cannot pass
// vacuously.
func checkCovers(t *testing.T, d apitype.DeploymentV3) {
	t.Helper()
	by := map[string]apitype.ResourceV3{}
	for _, r := range d.Resources {
		by[string(r.URN.Name())] = r
	}
	checks := map[string]bool{
		"pet is protected, under the component": by["pet"].Protect && by["pet"].Parent == by["group"].URN,
		"note depends on the component":         len(by["note"].Dependencies) > 0,
		"note keeps its options":                by["note"].RetainOnDelete && len(by["note"].IgnoreChanges) == 1 && by["note"].CustomTimeouts != nil,
		"noteRead is external":                  by["noteRead"].External,
		"secret's content is a secret":          by["secret"].Inputs["content"] == "secret:\"not-a-real-token\"",
		"the stack output number is a secret":   strings.HasPrefix(fmt.Sprint(by["roundtrip-dev"].Outputs["number"]), "secret:"),
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("plinth's export does not hold what the test takes through pulumi: %s", what)
		}
	}
}
