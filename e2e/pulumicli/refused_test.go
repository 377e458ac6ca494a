//go:build unix

package pulumicli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

// TestPulumiRefusesBrokenExports checks that the CLI validates what it
// imports, so that its accepting plinth's export means something: plinth's
// export, broken in one way each, is refused by `pulumi stack import`
// with its own message, and the Pulumi stack stays empty.
func TestPulumiRefusesBrokenExports(t *testing.T) {
	w := newWorld(t, "roundtrip")
	w.plinth("up", "--yes")
	good := []byte(w.plinth("state", "export", "--format", "pulumi").Stdout)
	const gone = "urn:pulumi:dev::roundtrip::roundtrip:index:Group::gone"
	cases := map[string]struct {
		edit func(d map[string]any)
		want string
	}{
		"dangling parent": {func(d map[string]any) { resource(d, "::note")["parent"] = gone },
			"child resource urn:pulumi:dev::roundtrip::plinth:fs:File::note refers to missing parent " + gone},
		"dependency after it": {func(d map[string]any) { resource(d, "::number")["dependencies"] = []any{urnOf(d, "::note")} },
			"resource urn:pulumi:dev::roundtrip::plinth:random:Integer::number's dependency urn:pulumi:dev::roundtrip::plinth:fs:File::note comes after it"},
		"duplicate URN": {func(d map[string]any) { d["resources"] = append(d["resources"].([]any), resource(d, "::note")) },
			"duplicate resource urn:pulumi:dev::roundtrip::plinth:fs:File::note (not marked for deletion)"},
		"unknown provider": {func(d map[string]any) {
			resource(d, "::note")["provider"] = "urn:pulumi:dev::roundtrip::pulumi:providers:plinth::other::id"
		},
			"refers to unknown provider urn:pulumi:dev::roundtrip::pulumi:providers:plinth::other::id"},
		"another stack": {func(d map[string]any) {
			resource(d, "::note")["urn"] = "urn:pulumi:prod::roundtrip::plinth:fs:File::note"
		},
			"resource 'urn:pulumi:prod::roundtrip::plinth:fs:File::note' is from a different stack (prod != dev)"},
		"tampered manifest": {func(d map[string]any) { d["manifest"].(map[string]any)["version"] = "plinth-edited" },
			"magic cookie mismatch"},
		// Why plinth refuses to export an ID derived from a secret
		// (pulumistate.SecretIDError) instead of sealing it: Pulumi
		// takes an ID only as a plain string.
		"sealed ID": {func(d map[string]any) {
			resource(d, "::note")["id"] = map[string]any{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": "v1:AAAAAAAAAAAAAAAA:AAAA"}
		},
			"cannot unmarshal object into Go struct field ResourceV3.resources.id of type resource.ID"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			file := w.file("broken.json")
			w.write(file, string(editDeployment(t, good, c.edit)))
			out, err := w.runPulumi("stack", "import", "--file", file)
			if err == nil || !strings.Contains(out, c.want) {
				t.Errorf("pulumi stack import: err %v, want it refused saying %q\n%s", err, c.want, out)
			}
			w.mustPulumi("stack", "export", "--file", w.file("after.json"))
			if n := len(normaliseAny(t, w.read(w.file("after.json"))).Resources); n != 0 {
				t.Errorf("after a refused import the Pulumi stack holds %d resources, want 0", n)
			}
		})
	}
}

// editDeployment applies edit to the deployment of an exported file.
func editDeployment(t *testing.T, data []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var u apitype.UntypedDeployment
	var d map[string]any
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	raw, err := json.Marshal(d)
	if err == nil {
		data, err = json.Marshal(apitype.UntypedDeployment{Version: u.Version, Features: u.Features, Deployment: raw})
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// resource is the deployment's resource whose URN ends with suffix.
func resource(d map[string]any, suffix string) map[string]any {
	for _, r := range d["resources"].([]any) {
		if r := r.(map[string]any); strings.HasSuffix(r["urn"].(string), suffix) {
			return r
		}
	}
	panic("no resource " + suffix)
}

func urnOf(d map[string]any, suffix string) string { return resource(d, suffix)["urn"].(string) }

// normaliseAny decodes a deployment that may hold no secrets provider
// (an empty stack's).
func normaliseAny(t *testing.T, data []byte) apitype.DeploymentV3 {
	t.Helper()
	var u apitype.UntypedDeployment
	var d apitype.DeploymentV3
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	return d
}
