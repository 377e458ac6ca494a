package tflang

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEphemeralNeverRecorded applies testdata/compare/ephemeral (an
// ephemeral tls_private_key and tls_public_key, an ephemeral
// random_password) and checks that no key material appears in the
// preview, the up output or any file plinth wrote: ephemeral values are
// never written to state or shown. TestSideBySide compares its outputs
// with terraform's.
func TestEphemeralNeverRecorded(t *testing.T) {
	needReal(t)
	p := newProject(t, "testdata/compare/ephemeral")
	shown := p.must("preview").Output() + p.must("up", "--yes").Output()
	leaks := []string{"PRIVATE KEY", "ssh-ed25519 "}
	for _, l := range leaks {
		if strings.Contains(shown, l) {
			t.Errorf("plinth showed ephemeral key material (%q):\n%s", l, shown)
		}
	}
	err := filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, l := range leaks {
			if strings.Contains(string(b), l) {
				t.Errorf("%s holds ephemeral key material (%q)", path, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("a second preview found changes or failed (exit %d):\n%s", r.Code, r.Output())
	}
	p.must("destroy", "--yes")
}
