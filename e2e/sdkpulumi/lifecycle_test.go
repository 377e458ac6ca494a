//go:build unix

package sdkpulumi_test

import (
	"encoding/json"

	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// password is the write-only input of the program in testdata/server.
const password = "hunter2-hunter2"

// TestLifecycle runs the example provider under the pulumi CLI: up
// creates, a preview finds no change (and none when the elements of the
// sets, of strings and of objects, are reordered), growing the server updates it in place keeping its
// stable serial (so a server whose tags hold it is left alone), shrinking it replaces it with a new serial, and destroy
// removes the record. After each up the outputs are what the program
// and the provider say, and the password (write-only) is nowhere in the
// state's plaintext.
func TestLifecycle(t *testing.T) {
	s := newStack(t, "server")

	s.run("up", "--yes", "--skip-preview")
	first := s.outputs()
	serial, _ := first["serial"].(string)
	if !strings.HasPrefix(serial, "srv-") {
		t.Fatalf("serial = %q, want srv-...", serial)
	}
	want := map[string]any{"serial": serial, "address": "web:8080", "size": "medium", "protocol": "tcp",
		"zones": []any{"a", "b"}, "slug": "hello-big-world", "joined": "a/b/c", "peer": serial,
		"allow": []any{map[string]any{"port": 80.0, "protocol": "udp"}, map[string]any{"port": 443.0, "protocol": "tcp"}}}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("outputs after create (-want +got):\n%s", diff)
	}
	s.noChanges("after create")
	s.refreshNoChanges("after create")
	s.passwordHidden()

	s.edit("zones: [b, a]", "zones: [a, b]")
	s.edit("- port: 443\n        - port: 80\n          protocol: udp", "- port: 80\n          protocol: udp\n        - port: 443\n          protocol: tcp")
	s.noChanges("after reordering the sets of zones and of allowed ports (and spelling out a default)")

	s.edit("size: medium", "size: large")
	// db's tags hold web's serial, which is stable: an update of web
	// leaves db alone, a replacement of web updates db.
	s.wantSummary("growing the server", map[string]int{"update": 1, "same": 3})
	s.run("up", "--yes", "--skip-preview")
	want["size"] = "large"
	if diff := cmp.Diff(want, s.outputs()); diff != "" {
		t.Errorf("outputs after the update (-want +got):\n%s", diff)
	}
	s.noChanges("after the update")
	s.refreshNoChanges("after the update")

	s.edit("size: large", "size: small")
	s.wantSummary("shrinking the server", map[string]int{"replace": 1, "update": 1, "same": 2})
	s.run("up", "--yes", "--skip-preview")
	got := s.outputs()
	if got["serial"] == serial {
		t.Errorf("the serial is still %v after a replacement", serial)
	}
	want["size"], want["serial"], want["peer"] = "small", got["serial"], got["serial"]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs after the replacement (-want +got):\n%s", diff)
	}
	s.noChanges("after the replacement")
	s.passwordHidden()

	s.run("destroy", "--yes", "--skip-preview")
	if left, _ := filepath.Glob(filepath.Join(s.records, "*")); len(left) != 0 {
		t.Errorf("records left after destroy: %v", left)
	}
}

// outputs is `pulumi stack output --json`.
func (s *stack) outputs() map[string]any {
	s.t.Helper()
	var out map[string]any
	if err := json.Unmarshal([]byte(s.run("stack", "output", "--json")), &out); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// noChanges runs `pulumi preview --expect-no-changes`.
func (s *stack) noChanges(when string) {
	s.t.Helper()
	if out, errOut, err := s.try("preview", "--expect-no-changes", "--diff"); err != nil {
		s.t.Errorf("%s, the preview finds changes (a perpetual diff): %v\n%s%s", when, err, out, errOut)
	}
}

// refreshNoChanges runs `pulumi refresh --expect-no-changes`: reading
// back what the provider wrote changes nothing.
func (s *stack) refreshNoChanges(when string) {
	s.t.Helper()
	if out, errOut, err := s.try("refresh", "--yes", "--expect-no-changes", "--diff"); err != nil {
		s.t.Errorf("%s, a refresh finds changes: %v\n%s%s", when, err, out, errOut)
	}
}

// wantSummary checks the change summary of `pulumi preview --json`.
func (s *stack) wantSummary(when string, want map[string]int) {
	s.t.Helper()
	var preview struct {
		ChangeSummary map[string]int `json:"changeSummary"`
	}
	out := s.run("preview", "--json")
	if err := json.Unmarshal([]byte(out), &preview); err != nil {
		s.t.Fatalf("%s: %v\n%s", when, err, out)
	}
	if diff := cmp.Diff(want, preview.ChangeSummary); diff != "" {
		s.t.Errorf("%s, the preview's summary (-want +got):\n%s\n%s", when, diff, out)
	}
}

// passwordHidden checks that the write-only password is nowhere in
// `pulumi stack export` and not among the server's outputs even with
// --show-secrets.
func (s *stack) passwordHidden() {
	s.t.Helper()
	if plain := s.run("stack", "export"); strings.Contains(plain, password) {
		s.t.Errorf("the write-only password is in the plaintext of pulumi stack export:\n%s", plain)
	}
	var dep struct {
		Deployment struct {
			Resources []struct {
				Type    string         `json:"type"`
				Outputs map[string]any `json:"outputs"`
			} `json:"resources"`
		} `json:"deployment"`
	}
	if err := json.Unmarshal([]byte(s.run("stack", "export", "--show-secrets")), &dep); err != nil {
		s.t.Fatal(err)
	}
	for _, r := range dep.Deployment.Resources {
		if r.Type != "example:index:Server" {
			continue
		}
		out, _ := json.Marshal(r.Outputs)
		if strings.Contains(string(out), password) {
			s.t.Errorf("the server's outputs hold the write-only password: %s", out)
		}
	}
}
