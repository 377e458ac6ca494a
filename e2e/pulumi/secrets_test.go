package pulumi_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const token = "s3cr3t-value"

var cmpSorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

// TestSecretsAndUnknowns runs testdata/secrets in both modes. A token set
// with `config set --secret` crosses the plugin boundary into a file, a
// command's environment and its output: it reaches the provider (the
// file holds it) but is shown as [secret] everywhere and is never written
// in the clear under .plinth. A file whose path and content come from a
// random integer previews as unknown, at creation and when the integer
// is to be replaced.
func TestSecretsAndUnknowns(t *testing.T) {
	for _, m := range []mode{inProcess(), outOfProcess()} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			p := newProject(t, "secrets", m)
			p.run("config", "set", "--secret", "token", token)
			wantBlocks(t, p.run("preview", "--diff").Stdout, []string{
				"  + create echo (plinth:exec:Command)\n" +
					"      + create: \"printf %s \\\"$TOKEN\\\"\"\n" +
					"      + environment: {\"TOKEN\": [secret]}",
				"  + create tokenFile (plinth:fs:File)\n" +
					"      + content: [secret]\n" +
					"      + path: \"out/token.txt\"\n" +
					"      + permissions: \"0600\"",
				"  + create dependent (plinth:fs:File)\n" +
					"      + content: [unknown]\n" +
					"      + path: [unknown]\n" +
					"      + permissions: \"0644\"",
			})
			up := p.run("up", "--yes", "--diff")
			for _, want := range []string{"  echoed:    [secret]", "  token:     [secret]", "  tokenSize: 18"} {
				if !strings.Contains(up.Stdout, want) {
					t.Errorf("up does not show %q:\n%s", want, up.Stdout)
				}
			}
			shown := up.Output() + p.run("stack", "output").Output() + p.run("state", "show", "echo").Output()
			if strings.Contains(shown, token) {
				t.Errorf("the token was shown:\n%s", shown)
			}
			if got := p.readFile("out/token.txt"); got != "token="+token {
				t.Errorf("out/token.txt = %q: the token did not reach the provider", got)
			}
			checkSecretOutputs(t, p)
			checkSecretState(t, p)
			p.run("config", "set", "seed", "two")
			wantBlocks(t, p.run("preview", "--diff").Stdout, []string{
				"  +- replace number (plinth:random:Integer)\n" +
					"      ~ seed: \"one\" => \"two\" (forces replacement)",
				"  +- replace dependent (plinth:fs:File)\n" +
					"      ~ content: \"number 4\" => [unknown]\n" +
					"      ~ path: \"out/4.txt\" => [unknown] (forces replacement)",
			})
		})
	}
}

// wantBlocks checks that each step block (a step line and its property
// lines) appears in a preview.
func wantBlocks(t *testing.T, out string, blocks []string) {
	t.Helper()
	for _, b := range blocks {
		if !strings.Contains(out, b+"\n") {
			t.Errorf("the preview lacks\n%s\nin\n%s", b, out)
		}
	}
}

// checkSecretOutputs: the stack outputs that carry the token are secret,
// and --show-secrets gives them back.
func checkSecretOutputs(t *testing.T, p *project) {
	t.Helper()
	var outs map[string]any
	if err := json.Unmarshal([]byte(p.run("stack", "output", "--json", "--show-secrets").Stdout), &outs); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"token": token, "echoed": token, "tokenSize": 18.0, "dependent": "out/4.txt"}
	if diff := cmp.Diff(want, outs); diff != "" {
		t.Errorf("stack output --show-secrets (-want +got):\n%s", diff)
	}
}

// checkSecretState: every property the token flows into is a secret in
// the exported state, and nothing at rest holds it in the clear.
func checkSecretState(t *testing.T, p *project) {
	t.Helper()
	export := p.run("state", "export").Stdout
	var snap struct {
		Resources []struct {
			URN             string
			Inputs, Outputs map[string]json.RawMessage
		}
		Outputs map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(export), &snap); err != nil {
		t.Fatal(err)
	}
	var secret []string
	isSecret := func(where string, raw json.RawMessage) {
		if strings.Contains(string(raw), secretSig) {
			secret = append(secret, where)
		}
	}
	for _, r := range snap.Resources {
		name := r.URN[strings.LastIndex(r.URN, "::")+2:]
		for k, v := range r.Inputs {
			isSecret(name+".inputs."+k, v)
		}
		for k, v := range r.Outputs {
			isSecret(name+".outputs."+k, v)
		}
	}
	for k, v := range snap.Outputs {
		isSecret("outputs."+k, v)
	}
	want := []string{"echo.inputs.environment", "echo.outputs.environment", "echo.outputs.stderr", "echo.outputs.stdout",
		"outputs.echoed", "outputs.token", "tokenFile.inputs.content", "tokenFile.outputs.content"}
	if diff := cmp.Diff(want, secret, cmpSorted); diff != "" {
		t.Errorf("secret properties in the state (-want +got):\n%s", diff)
	}
	checkNoPlaintextAtRest(t, p)
}

// checkNoPlaintextAtRest: neither the stack's files under .plinth (state,
// journal, key) nor its config file hold the token in the clear.
func checkNoPlaintextAtRest(t *testing.T, p *project) {
	t.Helper()
	_ = filepath.WalkDir(p.path(".plinth"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), token) {
			t.Errorf("%s holds the token in the clear", path)
		}
		return nil
	})
	if strings.Contains(p.readFile("plinth.dev.yaml"), token) {
		t.Error("plinth.dev.yaml holds the token in the clear")
	}
}
