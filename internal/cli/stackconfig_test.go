package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func testCrypter(t testing.TB) *secrets.Crypter {
	c, err := secrets.NewCrypter(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStackConfigRoundTrip: whatever is set is read back as set, through
// the file, secrets sealed.
func TestStackConfigRoundTrip(t *testing.T) {
	c := testCrypter(t)
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "plinth.dev.yaml")
		cfg, err := readStackConfig(path, "plinth.dev.yaml")
		if err != nil {
			rt.Fatal(err)
		}
		want := map[string]resource.Value{}
		keys := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z][a-zA-Z0-9]{0,8}(:[a-z][a-zA-Z0-9]{0,8})?`), 0, 6, rapid.ID[string]).Draw(rt, "keys")
		for _, k := range keys {
			text := rapid.String().Draw(rt, "text")
			secret := rapid.Bool().Draw(rt, "secret")
			if err := cfg.set(k, text, resource.NewString(text), secret, c); err != nil {
				rt.Fatal(err)
			}
			want[k] = resource.NewString(text)
			if secret {
				want[k] = resource.MakeSecret(want[k])
			}
		}
		if err := cfg.save(); err != nil {
			rt.Fatal(err)
		}
		back, err := readStackConfig(path, "plinth.dev.yaml")
		if err != nil {
			rt.Fatal(err)
		}
		got, err := back.Values(c)
		if err != nil {
			rt.Fatal(err)
		}
		if !resource.NewObject(want).Equal(resource.NewObject(got)) {
			rt.Fatalf("read back %v, want %v", got, want)
		}
		for k, v := range want {
			if v.IsSecret() && strings.Contains(readOrEmpty(path), v.SecretElement().Str()) && len(v.SecretElement().Str()) > 3 {
				rt.Fatalf("the secret of %s is in the file in plain text", k)
			}
		}
	})
}

func readOrEmpty(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

func TestStackConfigStructured(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plinth.dev.yaml")
	if err := os.WriteFile(path, []byte("config:\n  n: 3\n  tags: {team: infra, n: [1, 2]}\n  empty:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := readStackConfig(path, "plinth.dev.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := cfg.Values(testCrypter(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"n": `"3"`, "tags": `{"n": [1, 2], "team": "infra"}`}
	gotText := map[string]string{}
	for k, v := range got {
		gotText[k] = v.String()
	}
	if diff := cmp.Diff(want, gotText); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// FuzzStackConfig: a stack config file is text people edit; no content
// may crash plinth, and an error must name the file.
func FuzzStackConfig(f *testing.F) {
	for _, s := range []string{"config:\n  a: b\n", "config: [\n", "config:\n  s:\n    secure: xx\n", "other: 1\n", "- a\n", "config:\n  o: {a: [1, {b: c}]}\n", ""} {
		f.Add(s)
	}
	c := testCrypter(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "plinth.dev.yaml")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := readStackConfig(path, "plinth.dev.yaml")
		if err == nil {
			_, err = cfg.Values(c)
		}
		if err != nil && !strings.Contains(err.Error(), "plinth.dev.yaml") {
			t.Errorf("error does not name the file: %v", err)
		}
	})
}
