//go:build unix

package pulumiyaml_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSecrets: a secret config value and fn::secret reach the program as
// secrets through the language host: the outputs computed from them show
// as [secret] (and in full with --show-secrets), the state holds none of
// them in plain text, and a value that is not secret stays plain.
func TestSecrets(t *testing.T) {
	p := newProject(t, "secrets")
	p.run("config", "set", "--secret", "token", "hunter2-token")
	p.run("up", "--yes")

	if diff := cmp.Diff("token=hunter2-token", p.readFile("out/token.txt")); diff != "" {
		t.Errorf("out/token.txt (-want +got):\n%s", diff)
	}
	shown := p.run("stack", "output", "--json").Stdout
	for _, want := range []string{`"tokenContent": "[secret]"`, `"wrapped": "[secret]"`, `"encoded": "[secret]"`, `"plainContent": "visible"`} {
		if !strings.Contains(shown, want) {
			t.Errorf("stack output lacks %s:\n%s", want, shown)
		}
	}
	revealed := p.run("stack", "output", "--json", "--show-secrets").Stdout
	encoded := base64.StdEncoding.EncodeToString([]byte("hunter2-token"))
	for _, want := range []string{`"tokenContent": "token=hunter2-token"`, `"wrapped": "wrapped-visible"`, `"encoded": "` + encoded + `"`} {
		if !strings.Contains(revealed, want) {
			t.Errorf("stack output --show-secrets lacks %s:\n%s", want, revealed)
		}
	}
	state := p.run("state", "export").Stdout
	for _, secret := range []string{"hunter2-token", "wrapped-visible", encoded} {
		if strings.Contains(state, secret) {
			t.Errorf("the state holds %q in plain text", secret)
		}
	}
	if !strings.Contains(state, `"content":"visible"`) {
		t.Errorf("the state lost the plain value:\n%s", state)
	}
	p.run("destroy", "--yes")
}
