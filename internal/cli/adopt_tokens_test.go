package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestAdoptPulumiDynamicProviderStack: `plinth state adopt` of the
// issue's stack (a pulumi.dynamic.Resource with its default provider
// pulumi:providers:pulumi-nodejs, under a component whose type name has a
// hyphen, a one-segment component type, an explicit azure-native
// provider) succeeds, and the adopted state then loads for `state ls` and
// exports again. Before, adopt refused the stack ('type name
// "pulumi-nodejs" must start with a letter ...').
func TestAdoptPulumiDynamicProviderStack(t *testing.T) {
	const p = `urn:pulumi:prod::app::`
	res := []string{
		pulumiStack,
		`{"urn": "` + p + `pulumi:providers:pulumi-nodejs::default", "custom": true, "id": "n1", "type": "pulumi:providers:pulumi-nodejs"}`,
		`{"urn": "` + p + `my:module:ComponentSixParent-v10::six", "type": "my:module:ComponentSixParent-v10", "parent": "` + p + `pulumi:pulumi:Stack::app-prod"}`,
		`{"urn": "` + p + `my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource::dyn", "custom": true, "id": "d1",
		  "type": "pulumi-nodejs:dynamic:Resource", "parent": "` + p + `my:module:ComponentSixParent-v10::six",
		  "provider": "` + p + `pulumi:providers:pulumi-nodejs::default::n1", "inputs": {"x": "1"}, "outputs": {"x": "1"}}`,
		`{"urn": "` + p + `component::comp", "type": "component", "parent": "` + p + `pulumi:pulumi:Stack::app-prod"}`,
		`{"urn": "` + p + `pulumi:providers:azure-native::az", "custom": true, "id": "a1", "type": "pulumi:providers:azure-native"}`,
		`{"urn": "` + p + `component$azure-native:storage:StorageAccount::sa", "custom": true, "id": "sa1",
		  "type": "azure-native:storage:StorageAccount", "parent": "` + p + `component::comp",
		  "provider": "` + p + `pulumi:providers:azure-native::az::a1"}`,
	}
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	file := filepath.Join(t.TempDir(), "stack.json")
	writeFile(t, file, deployment("", res...))
	clitest.MustRun(t, dir, clitest.Options{}, "state", "adopt", file, "--format", "pulumi", "--force")
	out := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls").Stdout
	for _, want := range []string{"six", "dyn", "comp", "sa"} {
		if !strings.Contains(out, want) {
			t.Errorf("state ls after adopt does not list %s:\n%s", want, out)
		}
	}
	exported := filepath.Join(t.TempDir(), "export.json")
	clitest.MustRun(t, dir, clitest.Options{}, "state", "export", "--format", "pulumi", "--file", exported)
	data := readFile(t, exported)
	for _, want := range []string{`"pulumi:providers:pulumi-nodejs"`, `"my:module:ComponentSixParent-v10"`, `"type": "component"`} {
		if !strings.Contains(data, want) {
			t.Errorf("the Pulumi export does not hold %s:\n%s", want, data)
		}
	}
}
