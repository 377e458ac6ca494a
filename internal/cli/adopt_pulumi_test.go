package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state/pulumistate"
)

const pulumiStack = `{"urn": "urn:pulumi:prod::app::pulumi:pulumi:Stack::app-prod", "custom": false, "type": "pulumi:pulumi:Stack"}`

const pulumiProvider = `{"urn": "urn:pulumi:prod::app::pulumi:providers:random::default", "custom": true, "id": "p1",
 "type": "pulumi:providers:random", "inputs": {}, "outputs": {}}`

// pulumiPet is a custom resource whose extra members (JSON, with a
// leading comma) are given.
func pulumiPet(extra string) string {
	return `{"urn": "urn:pulumi:prod::app::random:index/randomPet:RandomPet::pet", "custom": true, "id": "a-b",
 "type": "random:index/randomPet:RandomPet", "inputs": {"length": 2}, "outputs": {"id": "a-b", "length": 2},
 "parent": "urn:pulumi:prod::app::pulumi:pulumi:Stack::app-prod",
 "provider": "urn:pulumi:prod::app::pulumi:providers:random::default::p1"` + extra + `}`
}

// deployment writes a version-3 deployment of the resources given.
func deployment(secrets string, resources ...string) string {
	sp := ""
	if secrets != "" {
		sp = `, "secrets_providers": ` + secrets
	}
	return `{"version": 3, "deployment": {"manifest": {"time": "2026-01-02T03:04:05Z", "magic": "", "version": "v3.150.0"}` + sp +
		`, "resources": [` + strings.Join(resources, ", ") + `]}}`
}

// sealedDeployment is a deployment whose pet has a secret input, sealed
// by Pulumi's passphrase secrets provider with the passphrase given.
func sealedDeployment(t *testing.T, phrase string) string {
	t.Helper()
	p, err := pulumistate.NewPassphrase(phrase)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := p.Seal([]byte(`"hunter2"`))
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := json.Marshal(map[string]string{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": ct})
	sp, _ := json.Marshal(map[string]any{"type": "passphrase", "state": p.State})
	pet := strings.Replace(pulumiPet(""), `"inputs": {"length": 2}`, `"inputs": {"length": 2, "prefix": `+string(secret)+`}`, 1)
	return deployment(string(sp), pulumiStack, pulumiProvider, pet)
}

// TestAdoptPulumiBadInput: broken and hostile Pulumi deployments are each
// refused with an error naming what is wrong, and the stack's files are
// left byte for byte as they were.
func TestAdoptPulumiBadInput(t *testing.T) {
	good := deployment("", pulumiStack, pulumiProvider, pulumiPet(""))
	sealed := sealedDeployment(t, "right")
	cases := map[string]struct {
		deployment string
		env        map[string]string
		want       []string
	}{
		"truncated JSON":  {deployment: good[:120], want: []string{"ends early", "truncated"}},
		"not JSON":        {deployment: "version: 3\n", want: []string{"not valid JSON at byte 1"}},
		"version 5":       {deployment: strings.Replace(good, `"version": 3`, `"version": 5`, 1), want: []string{"version 5", "plinth reads versions 3 and 4"}},
		"version 1":       {deployment: strings.Replace(good, `"version": 3`, `"version": 1`, 1), want: []string{"version 1", "plinth reads versions 3 and 4"}},
		"no deployment":   {deployment: `{"resources": []}`, want: []string{`no "version" and "deployment"`}},
		"unknown feature": {deployment: strings.Replace(good, `"version": 3,`, `"version": 4, "features": ["taint", "teleport"],`, 1), want: []string{"needs the deployment features teleport,"}},
		"duplicate URN":   {deployment: deployment("", pulumiStack, pulumiProvider, pulumiPet(""), pulumiPet("")), want: []string{"random:index/randomPet:RandomPet::pet appears twice"}},
		"dangling parent": {deployment: deployment("", pulumiProvider, pulumiPet("")),
			want: []string{"urn:pulumi:prod::app::random:index/randomPet:RandomPet::pet names urn:pulumi:prod::app::pulumi:pulumi:Stack::app-prod as its parent", "dangling"}},
		"dangling provider": {deployment: deployment("", pulumiStack, pulumiPet("")),
			want: []string{"RandomPet::pet names urn:pulumi:prod::app::pulumi:providers:random::default as its provider", "dangling"}},
		"dangling dependency": {deployment: deployment("", pulumiStack, pulumiProvider, pulumiPet(`, "dependencies": ["urn:pulumi:prod::app::random:index/randomPet:RandomPet::gone"]`)),
			want: []string{"RandomPet::pet names urn:pulumi:prod::app::random:index/randomPet:RandomPet::gone as its dependency,", "dangling"}},
		"dangling property dependency": {deployment: deployment("", pulumiStack, pulumiProvider, pulumiPet(`, "propertyDependencies": {"length": ["urn:pulumi:prod::app::random:index/randomPet:RandomPet::gone"]}`)),
			want: []string{"RandomPet::gone as its dependency (of property length)", "dangling"}},
		"bad URN":                   {deployment: deployment("", pulumiStack, strings.Replace(pulumiProvider, "urn:pulumi:prod::app::pulumi:providers:random::default", "not-a-urn", 1)), want: []string{`"not-a-urn"`}},
		"unknown pending op":        {deployment: strings.Replace(good, `"resources": [`, `"pending_operations": [{"type": "exploding", "resource": `+pulumiProvider+`}], "resources": [`, 1), want: []string{`"exploding"`, "creating, updating, deleting or reading"}},
		"wrong passphrase":          {deployment: sealed, env: map[string]string{"PULUMI_CONFIG_PASSPHRASE": "wrong"}, want: []string{"PULUMI_CONFIG_PASSPHRASE is not the passphrase"}},
		"no passphrase set":         {deployment: sealed, want: []string{"RandomPet::pet", "inputs", "set PULUMI_CONFIG_PASSPHRASE"}},
		"cloud secrets":             {deployment: strings.Replace(sealed, `"type":"passphrase"`, `"type":"cloud"`, 1), want: []string{`"cloud" secrets provider`, "--show-secrets"}},
		"secret without a provider": {deployment: strings.Replace(sealed, `"secrets_providers"`, `"unused"`, 1), want: []string{"RandomPet::pet", "property prefix", "names no secrets provider", "--show-secrets"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, clitest.Options{}, "up", "--yes")
			file := filepath.Join(t.TempDir(), "stack.json")
			writeFile(t, file, c.deployment)
			before := projectFiles(t, dir)
			r := clitest.Run(t, dir, clitest.Options{Env: c.env}, "state", "adopt", file, "--format", "pulumi", "--force")
			if r.Code != 1 {
				t.Errorf("exit code %d, want 1\n%s", r.Code, r.Output())
			}
			for _, w := range append(c.want, "Nothing was changed") {
				if !strings.Contains(r.Output(), w) {
					t.Errorf("the output does not say %q:\n%.2000s", w, r.Output())
				}
			}
			if diff := cmp.Diff(before, projectFiles(t, dir)); diff != "" {
				t.Errorf("the failed adoption changed the project's files (-before +after):\n%.3000s", diff)
			}
		})
	}
}

// TestAdoptPulumiGood checks the deployment the bad cases start from is
// adopted, so that each case fails for its own reason.
func TestAdoptPulumiGood(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	file := filepath.Join(t.TempDir(), "stack.json")
	writeFile(t, file, deployment("", pulumiStack, pulumiProvider, pulumiPet("")))
	clitest.MustRun(t, dir, clitest.Options{}, "state", "adopt", file, "--format", "pulumi")
	writeFile(t, file, sealedDeployment(t, "right"))
	clitest.MustRun(t, dir, clitest.Options{Env: map[string]string{"PULUMI_CONFIG_PASSPHRASE": "right"}}, "state", "adopt", file, "--format", "pulumi", "--force")
	if out := clitest.MustRun(t, dir, clitest.Options{}, "state", "show", "pet", "--show-secrets").Stdout; !strings.Contains(out, "hunter2") {
		t.Errorf("the secret input was not adopted:\n%s", out)
	}
}

// TestAdoptPulumiIntoPulumiProject: in a Pulumi project (Pulumi.yaml,
// which plinth runs through a language host but does not load), adopting
// without --project names the URNs after the Pulumi.yaml's name, as
// pulumi's own stack of that project does.
func TestAdoptPulumiIntoPulumiProject(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Pulumi.yaml"), "name: app\nruntime: yaml\n")
	file := filepath.Join(t.TempDir(), "stack.json")
	writeFile(t, file, deployment("", pulumiStack, pulumiProvider, pulumiPet("")))
	clitest.MustRun(t, dir, clitest.Options{}, "stack", "init", "prod")
	clitest.MustRun(t, dir, clitest.Options{}, "state", "adopt", file, "--format", "pulumi")
	out := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls").Stdout
	if !strings.Contains(out, "urn:pulumi:prod::app::random:index/randomPet:RandomPet::pet") {
		t.Errorf("state ls after adopting into a Pulumi project does not list the pet under project app:\n%s", out)
	}
}
