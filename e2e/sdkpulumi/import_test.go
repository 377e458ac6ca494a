//go:build unix

package sdkpulumi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportAndDrift: a server whose record was written outside Pulumi
// imports with `pulumi import`, and the code it prints, added to the
// program, previews with no change. A record changed behind Pulumi's back
// (tags added, its revision bumped, as another writer would) is found by
// a refresh and put back by `up --refresh`, past the example's private
// revision check; after that, nothing is left to do.
func TestImportAndDrift(t *testing.T) {
	s := newStack(t, "server")
	s.run("up", "--yes", "--skip-preview")

	// A record for "spare", as the provider would have written it.
	copyFile(t, filepath.Join(s.records, "web.json"), filepath.Join(s.records, "spare.json"))
	s.changeRecord("spare", func(r map[string]any) {
		st := r["state"].(map[string]any)
		st["Name"], st["Address"], st["Tags"], st["Zones"], st["Listener"] = "spare", "spare", nil, nil, nil
	})
	out := s.run("import", "example:index:Server", "spare", "spare", "--yes", "--protect=false",
		"--provider", "records=urn:pulumi:dev::sdkexample::pulumi:providers:example::records")
	code := out[strings.Index(out, "resources:\n")+len("resources:\n"):]
	s.edit("variables:", strings.TrimRight(code, "\n")+"\nvariables:")
	s.noChanges("after importing spare and adding the code pulumi import printed")

	s.changeRecord("web", func(r map[string]any) {
		r["state"].(map[string]any)["Tags"] = map[string]any{"env": "prod", "extra": "x"}
		r["revision"] = r["revision"].(float64) + 1
	})
	if out, errOut, err := s.try("refresh", "--yes", "--expect-no-changes"); err == nil {
		t.Errorf("a refresh finds no drift in web's tags:\n%s%s", out, errOut)
	}
	s.run("up", "--yes", "--skip-preview", "--refresh")
	s.noChanges("after up --refresh put the drift back")
	s.refreshNoChanges("after up --refresh put the drift back")
	var rec struct {
		State struct{ Tags map[string]string }
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(s.records, "web.json")), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.State.Tags["env"] != "dev" || len(rec.State.Tags) != 1 {
		t.Errorf("web's record has tags %v after up, want env=dev only", rec.State.Tags)
	}
}

// changeRecord rewrites the example's JSON record of a server.
func (s *stack) changeRecord(name string, f func(map[string]any)) {
	s.t.Helper()
	path := filepath.Join(s.records, name+".json")
	var r map[string]any
	if err := json.Unmarshal(readFile(s.t, path), &r); err != nil {
		s.t.Fatal(err)
	}
	f(r)
	data, err := json.Marshal(r)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.WriteFile(to, readFile(t, from), 0o644); err != nil {
		t.Fatal(err)
	}
}
