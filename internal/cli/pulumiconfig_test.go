package cli_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// pulumiPhrase is the passphrase of the tests' Pulumi.dev.yaml files.
const pulumiPhrase = "pulumi passphrase"

// pulumiStackFile is what `pulumi config set --secret token s3cr3t` and
// `pulumi config set --path --secret obj.inner x` (with obj.n 3) write,
// sealed here by Pulumi's own passphrase crypter.
func pulumiStackFile(t *testing.T) string {
	t.Helper()
	salt := []byte("8 bytes!")
	c := config.NewSymmetricCrypterFromPassphrase(pulumiPhrase, salt)
	seal := func(s string) string {
		ct, err := c.EncryptValue(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	return "encryptionsalt: v1:" + base64.StdEncoding.EncodeToString(salt) + ":" + seal("pulumi") + "\n" +
		"config:\n" +
		"  demo:token:\n    secure: " + seal("s3cr3t") + "\n" +
		"  demo:obj:\n    inner:\n      secure: " + seal("x") + "\n    \"n\": 3\n" +
		"  demo:plain: hello\n"
}

// pulumiProject is a Pulumi program's directory with the given
// Pulumi.dev.yaml ("" for none).
func pulumiProject(t *testing.T, stackFile string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Pulumi.yaml"), "name: demo\nruntime: nodejs\n")
	if stackFile != "" {
		writeFile(t, filepath.Join(dir, "Pulumi.dev.yaml"), stackFile)
	}
	return dir
}

func pulumiEnv(vars ...string) clitest.Options {
	env := map[string]string{}
	for i := 0; i+1 < len(vars); i += 2 {
		env[vars[i]] = vars[i+1]
	}
	return clitest.Options{Env: env}
}

// TestPulumiConfigGetOpensPulumiSecrets: the secure values of a
// Pulumi.dev.yaml written by Pulumi's passphrase provider open with
// PULUMI_CONFIG_PASSPHRASE (or PLINTH_PASSPHRASE), nested ones too; a
// wrong or missing passphrase says so and names the file.
func TestPulumiConfigGetOpensPulumiSecrets(t *testing.T) {
	right := pulumiEnv("PULUMI_CONFIG_PASSPHRASE", pulumiPhrase)
	cases := map[string]struct {
		args []string
		opts clitest.Options
		want string // stdout, or what the error says (every part)
		fail bool
	}{
		"secret":             {args: []string{"token"}, opts: right, want: "s3cr3t\n"},
		"namespaced key":     {args: []string{"demo:token"}, opts: right, want: "s3cr3t\n"},
		"plinth passphrase":  {args: []string{"token"}, opts: pulumiEnv("PLINTH_PASSPHRASE", pulumiPhrase), want: "s3cr3t\n"},
		"nested secret":      {args: []string{"--path", "obj.inner"}, opts: right, want: "x\n"},
		"object with secret": {args: []string{"obj"}, opts: right, want: `{"inner":"x","n":3}` + "\n"},
		"plain":              {args: []string{"plain"}, want: "hello\n"},
		"wrong passphrase": {args: []string{"token"}, opts: pulumiEnv("PULUMI_CONFIG_PASSPHRASE", "nope"), fail: true,
			want: "Pulumi.dev.yaml: Wrong passphrase|PULUMI_CONFIG_PASSPHRASE is not the passphrase"},
		"no passphrase": {args: []string{"token"}, fail: true, want: "Pulumi.dev.yaml: Passphrase needed|Set PULUMI_CONFIG_PASSPHRASE"},
		"not set":       {args: []string{"--path", "obj.other"}, opts: right, fail: true, want: `sets no config path "obj.other"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := pulumiProject(t, pulumiStackFile(t))
			r := clitest.Run(t, dir, c.opts, append([]string{"config", "get"}, c.args...)...)
			if c.fail {
				for _, part := range strings.Split(c.want, "|") {
					if r.Code == 0 || !strings.Contains(r.Output(), part) {
						t.Fatalf("exit %d, want a failure saying %q:\n%s", r.Code, part, r.Output())
					}
				}
				return
			}
			if r.Code != 0 || r.Stdout != c.want {
				t.Fatalf("exit %d, stdout %q, want %q:\n%s", r.Code, r.Stdout, c.want, r.Output())
			}
		})
	}
}

// TestPulumiConfigSetSealsForPulumi: what plinth config set --secret
// writes to Pulumi.dev.yaml (a new encryptionsalt, values in the
// project's namespace, a --path secret sealed alone) opens with Pulumi's
// own crypter, and plinth.dev.yaml is not written.
func TestPulumiConfigSetSealsForPulumi(t *testing.T) {
	dir := pulumiProject(t, "")
	opts := pulumiEnv("PULUMI_CONFIG_PASSPHRASE", pulumiPhrase)
	clitest.MustRun(t, dir, opts, "config", "set", "--secret", "token", "s3cr3t")
	clitest.MustRun(t, dir, opts, "config", "set", "--path", "--secret", "obj.inner", "x")
	clitest.MustRun(t, dir, opts, "config", "set", "--path", "obj.n", "3")
	clitest.MustRun(t, dir, opts, "config", "set", "--path", "obj.list[0]", "a")
	clitest.MustRun(t, dir, opts, "config", "set", "--path", `obj["a.b"]`, "q")
	clitest.MustRun(t, dir, opts, "config", "set", "plain", "7")
	if _, err := os.Stat(filepath.Join(dir, "plinth.dev.yaml")); err == nil {
		t.Errorf("plinth.dev.yaml was written:\n%s", readFile(t, filepath.Join(dir, "plinth.dev.yaml")))
	}
	var f struct {
		Salt   string         `yaml:"encryptionsalt"`
		Config map[string]any `yaml:"config"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(dir, "Pulumi.dev.yaml"))), &f); err != nil {
		t.Fatal(err)
	}
	open := pulumiOpener(t, f.Salt)
	obj := f.Config["demo:obj"].(map[string]any)
	got := map[string]any{
		"token": open(f.Config["demo:token"]),
		"inner": open(obj["inner"]),
		"n":     obj["n"], "list": obj["list"], "a.b": obj["a.b"],
		"plain": f.Config["demo:plain"],
	}
	want := map[string]any{"token": "s3cr3t", "inner": "x", "n": 3, "list": []any{"a"}, "a.b": "q", "plain": "7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pulumi.dev.yaml as Pulumi reads it (-want +got):\n%s\n%s", diff, readFile(t, filepath.Join(dir, "Pulumi.dev.yaml")))
	}
	if out := clitest.MustRun(t, dir, opts, "config", "get", "obj").Stdout; out != `{"a.b":"q","inner":"x","list":["a"],"n":3}`+"\n" {
		t.Errorf("config get obj = %q", out)
	}
}

// pulumiOpener opens {secure: ...} values under a Pulumi salt line with
// Pulumi's own crypter, failing the test if the check does not open.
func pulumiOpener(t *testing.T, line string) func(any) string {
	t.Helper()
	parts := strings.SplitN(line, ":", 3)
	if len(parts) != 3 || parts[0] != "v1" {
		t.Fatalf("encryptionsalt %q is not Pulumi's v1:SALT:CHECK", line)
	}
	salt, err := base64.StdEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	c := config.NewSymmetricCrypterFromPassphrase(pulumiPhrase, salt)
	if check, err := c.DecryptValue(context.Background(), parts[2]); err != nil || check != "pulumi" {
		t.Fatalf("Pulumi's crypter does not open the salt's check: %q, %v", check, err)
	}
	return func(v any) string {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v is not a {secure: ...} value", v)
		}
		pt, err := c.DecryptValue(context.Background(), m["secure"].(string))
		if err != nil {
			t.Fatalf("Pulumi's crypter does not open %v: %v", v, err)
		}
		return pt
	}
}

// TestPulumiConfigPaths: --path sets, reads and removes values inside
// an object or array, refuses a step into a value of another kind, and
// is refused for a program that types its config.
func TestPulumiConfigPaths(t *testing.T) {
	dir := pulumiProject(t, "config:\n  demo:obj:\n    keep: 1\n    list:\n      - a\n      - b\n  demo:s: text\n")
	clitest.MustRun(t, dir, clitest.Options{}, "config", "rm", "--path", "obj.list[0]")
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "--path", "obj.deep.er", "true")
	if out := clitest.MustRun(t, dir, clitest.Options{}, "config", "get", "obj").Stdout; out != `{"deep":{"er":true},"keep":1,"list":["b"]}`+"\n" {
		t.Errorf("config get obj = %q", out)
	}
	bad := map[string]struct{ args []string }{
		"into a string": {args: []string{"set", "--path", "s.x", "1"}},
		"a gap":         {args: []string{"set", "--path", "obj.list[5]", "1"}},
		"bad path":      {args: []string{"set", "--path", "obj[x", "1"}},
		"rm not set":    {args: []string{"rm", "--path", "obj.nope"}},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			before := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml"))
			r := clitest.Run(t, dir, clitest.Options{}, append([]string{"config"}, c.args...)...)
			if r.Code == 0 {
				t.Fatalf("config %v succeeded", c.args)
			}
			if after := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml")); after != before {
				t.Errorf("a refused command changed Pulumi.dev.yaml:\n%s", after)
			}
		})
	}
	writeFile(t, filepath.Join(dir, "Pulumi.kms.yaml"), "secretsprovider: awskms://alias/x\nencryptedkey: abc\nconfig: {}\n")
	if r := clitest.Run(t, dir, clitest.Options{}, "config", "get", "--stack", "kms", "x"); r.Code == 0 || !strings.Contains(r.Output(), "change-secrets-provider passphrase") {
		t.Errorf("a KMS stack file: exit %d\n%s", r.Code, r.Output())
	}
	plinthDir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	if r := clitest.Run(t, plinthDir, clitest.Options{}, "config", "set", "--path", "a.b", "1"); r.Code == 0 || !strings.Contains(r.Output(), "Config path not taken") {
		t.Errorf("--path for a plinth.yaml program: exit %d\n%s", r.Code, r.Output())
	}
}

// TestPulumiConfigWithoutPassphrase: with no passphrase at all, a
// Pulumi program's secret is sealed with the stack's own key into
// Pulumi.dev.yaml with no encryptionsalt (as an earlier plinth sealed
// them), and opens again; a later passphrase does not make a salt under
// which that value could not open.
func TestPulumiConfigWithoutPassphrase(t *testing.T) {
	dir := pulumiProject(t, "")
	home := clitest.Options{Env: map[string]string{"PLINTH_HOME": t.TempDir()}}
	clitest.MustRun(t, dir, home, "config", "set", "--secret", "token", "s3cr3t")
	cfg := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml"))
	if strings.Contains(cfg, "encryptionsalt") || !strings.Contains(cfg, "demo:token:\n    secure: ") {
		t.Fatalf("Pulumi.dev.yaml:\n%s", cfg)
	}
	home.Env["PULUMI_CONFIG_PASSPHRASE"] = pulumiPhrase
	clitest.MustRun(t, dir, home, "config", "set", "--secret", "other", "x")
	if cfg := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml")); strings.Contains(cfg, "encryptionsalt") {
		t.Errorf("a salt was made for a file holding values sealed with the stack's key:\n%s", cfg)
	}
	for k, want := range map[string]string{"token": "s3cr3t\n", "other": "x\n"} {
		if out := clitest.MustRun(t, dir, home, "config", "get", k).Stdout; out != want {
			t.Errorf("config get %s = %q, want %q", k, out, want)
		}
	}
}

// TestPulumiConfigOlderPlinthFile: a key an earlier plinth wrote to
// plinth.dev.yaml wins in get and ls until config set moves it to
// Pulumi.dev.yaml; ls shows the keys of both files, without the
// project's namespace.
func TestPulumiConfigOlderPlinthFile(t *testing.T) {
	dir := pulumiProject(t, pulumiStackFile(t))
	writeFile(t, filepath.Join(dir, "plinth.dev.yaml"), "config:\n  plain: older\n  extra: e\n")
	opts := pulumiEnv("PULUMI_CONFIG_PASSPHRASE", pulumiPhrase)
	ls := func() map[string]string {
		var got map[string]string
		if err := json.Unmarshal([]byte(clitest.MustRun(t, dir, opts, "config", "ls", "--json", "--show-secrets").Stdout), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := map[string]string{"plain": "older", "extra": "e", "token": "s3cr3t", "obj": `{"inner":"x","n":3}`}
	if diff := cmp.Diff(want, ls()); diff != "" {
		t.Errorf("config ls (-want +got):\n%s", diff)
	}
	clitest.MustRun(t, dir, opts, "config", "set", "plain", "newer")
	clitest.MustRun(t, dir, opts, "config", "rm", "extra")
	if _, err := os.Stat(filepath.Join(dir, "plinth.dev.yaml")); err == nil {
		t.Errorf("plinth.dev.yaml still exists:\n%s", readFile(t, filepath.Join(dir, "plinth.dev.yaml")))
	}
	if cfg := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml")); !strings.Contains(cfg, "demo:plain: newer") {
		t.Errorf("Pulumi.dev.yaml does not hold the new value:\n%s", cfg)
	}
	want = map[string]string{"plain": "newer", "token": "s3cr3t", "obj": `{"inner":"x","n":3}`}
	if diff := cmp.Diff(want, ls()); diff != "" {
		t.Errorf("config ls after set and rm (-want +got):\n%s", diff)
	}
}

// TestPulumiConfigKeepsTheFile: plinth config set edits Pulumi.dev.yaml
// as pulumi and people wrote it: comments and the order of keys stay, a
// new key goes last.
func TestPulumiConfigKeepsTheFile(t *testing.T) {
	dir := pulumiProject(t, "# the dev stack\nconfig:\n  # the name\n  demo:zname: z # zed\n  demo:abc: a\n")
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "abc", "b")
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "new", "n")
	want := "# the dev stack\nconfig:\n  # the name\n  demo:zname: z # zed\n  demo:abc: b\n  demo:new: n\n"
	if got := readFile(t, filepath.Join(dir, "Pulumi.dev.yaml")); got != want {
		t.Errorf("Pulumi.dev.yaml:\n%s\nwant:\n%s", got, want)
	}
}
