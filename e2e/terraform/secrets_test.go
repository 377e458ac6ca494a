package terraform

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecrets checks the sensitive attributes of real providers,
// random_password.result and tls_private_key.private_key_pem, and the
// sensitive input local_sensitive_file.content: encrypted in the state (no
// file under .plinth holds them in plain text), shown as [secret] in plain
// and JSON output, and in full only with --show-secrets.
func TestSecrets(t *testing.T) {
	t.Parallel()
	p := realProject(t, "secrets")
	var shown []string // everything plinth printed without --show-secrets
	up := p.must("up", "--yes", "--json")
	shown = append(shown, up.Output())
	checkJSONOutputs(t, up.Stdout, map[string]string{"password": "[secret]", "keyPem": "[secret]"})

	plain := p.must("stack", "output")
	shown = append(shown, plain.Output())
	for _, name := range []string{"password", "keyPem"} {
		if !containsLine(plain.Stdout, name, "[secret]") {
			t.Errorf("stack output does not show %s as [secret]:\n%s", name, plain.Stdout)
		}
		one := p.must("stack", "output", name)
		shown = append(shown, one.Output())
		if !strings.Contains(one.Stdout, "[secret]") {
			t.Errorf("stack output %s = %q, want it masked", name, one.Stdout)
		}
	}
	secrets := revealed(t, p)
	if !strings.HasPrefix(secrets["keyPem"], "-----BEGIN PRIVATE KEY-----\n") || len(secrets["password"]) != 24 {
		t.Fatalf("stack output --show-secrets = %q, want the 24-character password and the key's PEM", secrets)
	}
	if got := p.output("password", "--show-secrets"); got != secrets["password"] {
		t.Errorf("stack output password --show-secrets = %q, want %q", got, secrets["password"])
	}
	for _, args := range [][]string{{"state", "show", "password"}, {"state", "show", "key", "--json"}, {"state", "show", "sensitive"}, {"preview", "--diff"}} {
		shown = append(shown, p.must(args...).Output())
	}

	p.edit("length: 24", "length: 25")
	p.edit("sensitive by schema 4711", "sensitive by schema 4712")
	for _, args := range [][]string{{"preview", "--diff"}, {"up", "--yes", "--diff"}, {"up", "--yes", "--json"}} {
		shown = append(shown, p.must(args...).Output())
	}
	replaced := revealed(t, p)
	if len(replaced["password"]) != 25 {
		t.Fatalf("the password after the replacement = %q, want 25 characters", replaced["password"])
	}
	plaintexts := []string{secrets["password"], replaced["password"], pemBody(t, secrets["keyPem"]), "sensitive by schema 471"}
	for i, out := range shown {
		for _, s := range plaintexts {
			if strings.Contains(out, s) {
				t.Errorf("output %d shows the secret %q:\n%s", i, s, out)
			}
		}
	}
	checkAtRest(t, p, plaintexts)
}

// revealed returns the stack's outputs in plain text.
func revealed(t *testing.T, p *project) map[string]string {
	t.Helper()
	var out map[string]string
	r := p.must("stack", "output", "--json", "--show-secrets")
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("stack output --json --show-secrets: %v\n%s", err, r.Stdout)
	}
	return out
}

// checkJSONOutputs checks the outputs of the summary event of an
// operation's JSON output.
func checkJSONOutputs(t *testing.T, out string, want map[string]string) {
	t.Helper()
	type summaryEvent struct {
		Preview bool              `json:"preview"`
		Outputs map[string]string `json:"outputs"`
	}
	var summary summaryEvent
	found := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Event string `json:"event"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("a line of JSON output is not JSON (%v): %s", err, line)
		}
		if ev.Event != "summary" {
			continue
		}
		var s summaryEvent
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("summary event: %v: %s", err, line)
		}
		if !s.Preview {
			summary, found = s, true
		}
	}
	if !found {
		t.Fatalf("no summary event of the update in:\n%s", out)
	}
	for k, v := range want {
		if summary.Outputs[k] != v {
			t.Errorf("JSON summary output %s = %q, want %q", k, summary.Outputs[k], v)
		}
	}
}

// containsLine reports whether some line of out holds both words.
func containsLine(out, a, b string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, a) && strings.Contains(l, b) {
			return true
		}
	}
	return false
}

// pemBody returns the base64 body of a PEM block, the part of a key that
// is the same in any encoding of the state.
func pemBody(t *testing.T, pem string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(pem), "\n")
	if len(lines) < 3 {
		t.Fatalf("not a PEM block: %q", pem)
	}
	return strings.Join(lines[1:len(lines)-1], "")
}

// checkAtRest checks that no file under .plinth holds a plaintext, raw or
// as a JSON string, and that the snapshot records the secrets as
// ciphertexts.
func checkAtRest(t *testing.T, p *project, plaintexts []string) {
	t.Helper()
	var forms [][]byte
	for _, s := range plaintexts {
		j, _ := json.Marshal(s)
		forms = append(forms, []byte(s), bytes.Trim(j, `"`))
	}
	files := 0
	err := filepath.WalkDir(p.path(".plinth"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		for _, f := range forms {
			if bytes.Contains(data, f) {
				t.Errorf("%s holds the secret %q in plain text", path, f)
			}
		}
		return err
	})
	if err != nil || files == 0 {
		t.Fatalf("walking .plinth: %v (%d files)", err, files)
	}
	snap := snapshot(t, p)
	for urn, attr := range map[string]string{"password": "result", "key": "private_key_pem"} {
		v := snap[urn][attr]
		var sealed struct {
			Ciphertext string `json:"ciphertext"`
		}
		if err := json.Unmarshal(v, &sealed); err != nil || !strings.HasPrefix(sealed.Ciphertext, "v1:") {
			t.Errorf("the snapshot records %s.%s as %s, want a sealed secret (a ciphertext)", urn, attr, v)
		}
	}
}

// snapshot reads the stack's snapshot file: each resource's outputs by
// name, raw.
func snapshot(t *testing.T, p *project) map[string]map[string]json.RawMessage {
	t.Helper()
	var snap struct {
		Resources []struct {
			URN     string                     `json:"urn"`
			Outputs map[string]json.RawMessage `json:"outputs"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(p.read(".plinth/stacks/dev/snapshot.json")), &snap); err != nil {
		t.Fatalf("reading the snapshot: %v", err)
	}
	out := map[string]map[string]json.RawMessage{}
	for _, r := range snap.Resources {
		out[r.URN[strings.LastIndex(r.URN, "::")+2:]] = r.Outputs
	}
	return out
}
