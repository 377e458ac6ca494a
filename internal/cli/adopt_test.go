package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// tfState writes a Terraform state around one managed resource whose
// fields are given as JSON members, for the hostile cases.
func tfState(resource string) string {
	return `{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l", "outputs": {}, "resources": [` + resource + `]}`
}

const goodResource = `{"mode": "managed", "type": "random_pet", "name": "p", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "a-b", "length": 2}}]}`

func withInstance(instance string) string {
	return tfState(`{"mode": "managed", "type": "random_pet", "name": "p", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]", "instances": [` + instance + `]}`)
}

// TestAdoptBadInput: broken and hostile Terraform states are each refused
// with an error naming what is wrong, and the stack's files are left byte
// for byte as they were.
func TestAdoptBadInput(t *testing.T) {
	huge := `{"schema_version": 0, "attributes": {"id": "x", "blob": "` + strings.Repeat("A", 50<<20) + `"}}`
	cases := map[string]struct {
		state string
		flags []string
		want  []string
	}{
		"empty":        {state: "", want: []string{"it is empty"}},
		"truncated":    {state: tfState(goodResource)[:80], want: []string{"ends early", "truncated"}},
		"not JSON":     {state: "version = 4\n", want: []string{"not valid JSON at byte 1"}},
		"a JSON array": {state: "[1, 2]", want: []string{"JSON array, not a state object"}},
		"no version":   {state: `{"resources": []}`, want: []string{`no "version" field`}},
		"version 3":    {state: `{"version": 3, "terraform_version": "0.11.14"}`, want: []string{"format version 3", "Terraform 0.12 or later"}},
		"version 5":    {state: `{"version": 5, "terraform_version": "1.99.0"}`, want: []string{"format version 5", "newer"}},
		"terraform 2":  {state: `{"version": 4, "terraform_version": "2.0.0", "resources": []}`, want: []string{"written by Terraform 2.0.0"}},
		"newer terraform's field": {state: `{"version": 4, "terraform_version": "1.14.0", "resources": [], "stacks": {}}`,
			want: []string{`field "stacks"`, `terraform_version "1.14.0"`}},
		"unknown provider": {state: strings.Replace(tfState(goodResource), `provider[\"registry.terraform.io/hashicorp/random\"]`, "aws", 1),
			want: []string{`provider "aws" is not a provider configuration address`}},
		"provider without a source": {state: strings.Replace(tfState(goodResource), `registry.terraform.io/hashicorp/random`, "random", 1),
			want: []string{`"random" is not a provider source address`}},
		"duplicate resource":  {state: tfState(goodResource + "," + goodResource), want: []string{"resource random_pet.p appears twice"}},
		"duplicate instance":  {state: withInstance(`{"index_key": 0, "attributes": {"id": "a"}}, {"index_key": 0, "attributes": {"id": "b"}}`), want: []string{"random_pet.p[0] appears twice"}},
		"attributes an array": {state: withInstance(`{"attributes": [1, 2]}`), want: []string{"random_pet.p", "attributes are a JSON array, not an object"}},
		"id a number":         {state: withInstance(`{"attributes": {"id": 7}}`), want: []string{"random_pet.p", "id attribute is a number"}},
		"attributes_flat":     {state: withInstance(`{"attributes_flat": {"id": "a"}}`), want: []string{"random_pet.p", "attributes_flat", "Terraform 0.12 or later"}},
		"no attributes":       {state: withInstance(`{"schema_version": 0}`), want: []string{"random_pet.p", "has no attributes"}},
		"50 MB attributes":    {state: withInstance(huge), want: []string{"random_pet.p", "50.0 MiB", "over the 16 MiB"}},
		"private not base64":  {state: withInstance(`{"attributes": {"id": "a"}, "private": "%%%"}`), want: []string{"random_pet.p", "private data is not base64"}},
		"bad sensitive path":  {state: withInstance(`{"attributes": {"id": "a"}, "sensitive_attributes": [[{"type": "splat", "value": 1}]]}`), want: []string{"random_pet.p", `path step has type "splat"`}},
		"unknown mode":        {state: strings.Replace(tfState(goodResource), `"managed"`, `"ephemeral"`, 1), want: []string{`mode "ephemeral"`}},
		"unknown status":      {state: withInstance(`{"status": "broken", "attributes": {"id": "a"}}`), want: []string{"random_pet.p", `status "broken"`}},
		"boolean index key":   {state: withInstance(`{"index_key": true, "attributes": {"id": "a"}}`), want: []string{"random_pet.p", "index_key true"}},
		"bad type name":       {state: strings.Replace(tfState(goodResource), `"random_pet"`, `"random pet"`, 1), want: []string{`"random pet"`, "not both Terraform identifiers"}},
		"output without value": {state: `{"version": 4, "terraform_version": "1.11.4", "outputs": {"x": {"type": "string"}}, "resources": []}`,
			want: []string{`output "x" has no value`}},
		"a plinth state": {state: `{"version": 2, "checksum": "00", "seq": 0, "resources": []}`, flags: []string{"--format", "plinth"},
			want: []string{"plinth state import"}},
		"unknown format": {state: tfState(goodResource), flags: []string{"--format", "cloudformation"}, want: []string{`--format "cloudformation"`}},
	}
	if len(cases) < 15 {
		t.Fatalf("only %d cases", len(cases))
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
			clitest.MustRun(t, dir, clitest.Options{}, "up", "--yes")
			file := filepath.Join(t.TempDir(), "terraform.tfstate")
			writeFile(t, file, c.state)
			before := projectFiles(t, dir)
			r := clitest.Run(t, dir, clitest.Options{}, append([]string{"state", "adopt", file, "--force"}, c.flags...)...)
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

// TestAdoptIntoStack: adoption goes into an empty stack, is refused by one
// that records resources (unchanged) unless --force, and is refused while
// the stack is locked.
func TestAdoptIntoStack(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	file := filepath.Join(t.TempDir(), "terraform.tfstate")
	writeFile(t, file, tfState(goodResource))
	out := clitest.MustRun(t, dir, clitest.Options{}, "state", "adopt", file)
	if !strings.Contains(out.Stdout, "1 resources (0 tainted, 0 pending deletion), 0 outputs") {
		t.Errorf("adopt said:\n%s", out.Output())
	}
	ls := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls").Stdout
	if !strings.Contains(ls, "urn:pulumi:dev::base::random:index:random_pet::random_pet.p  a-b") {
		t.Errorf("state ls after adopting:\n%s", ls)
	}
	before := projectFiles(t, dir)
	r := clitest.Run(t, dir, clitest.Options{}, "state", "adopt", file)
	if r.Code != 1 || !strings.Contains(r.Output(), "Stack is not empty") || !strings.Contains(r.Output(), "--force") {
		t.Errorf("adopting into a stack with resources: exit %d\n%s", r.Code, r.Output())
	}
	if diff := cmp.Diff(before, projectFiles(t, dir)); diff != "" {
		t.Errorf("the refused adoption changed files:\n%s", diff)
	}
	holdLock(t, dir)
	r = clitest.Run(t, dir, clitest.Options{}, "state", "adopt", file, "--force")
	if r.Code != 1 || !strings.Contains(r.Output(), "locked") {
		t.Errorf("adopting into a locked stack: exit %d\n%s", r.Code, r.Output())
	}
}
