package hcl

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
)

// TestReadingIsReported: each data source read and ephemeral opening is
// reported when it starts and when it completes, with the id the read
// returned (terraform's "Read complete after 0s [id=...]"); a failed read
// is reported started, then as its diagnostic, never completed.
func TestReadingIsReported(t *testing.T) {
	config := `
data "thing_x" "ok" { id = "abc" }
data "thing_x" "bad" { filename = "nope" }
ephemeral "random_password" "e" { name = "x" }
`
	var mu sync.Mutex
	var got []string
	opts := program.Options{Reading: func(r program.Reading) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%s ephemeral=%v done=%v id=%q", r.Address, r.Ephemeral, r.Done, r.ID))
	}}
	failBad := func(req engine.InvokeRequest) error {
		if req.Args["filename"].Str() == "nope" {
			return errors.New("no such file")
		}
		return nil
	}
	_, err := runConfigOn(t, map[string]string{"main.tf": config}, opts, &fakeMonitor{preview: true, readErr: failBad})
	if err == nil || !strings.Contains(err.Error(), "Reading data.thing_x.bad failed: no such file.") {
		t.Errorf("the failed read's error is %v", err)
	}
	sort.Strings(got)
	want := []string{
		`data.thing_x.bad ephemeral=false done=false id=""`,
		`data.thing_x.ok ephemeral=false done=false id=""`,
		`data.thing_x.ok ephemeral=false done=true id="abc"`,
		`ephemeral.random_password.e ephemeral=true done=false id=""`,
		`ephemeral.random_password.e ephemeral=true done=true id=""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reads reported (-want +got):\n%s", diff)
	}
}

// TestReadFailureShowsTheProviderDiagnostic: a failed data source read is
// reported with the provider's own summary and detail, as terraform
// reports it, naming the data source's address and never the engine's
// type token; other errors keep plinth's summary, without the token.
func TestReadFailureShowsTheProviderDiagnostic(t *testing.T) {
	read := oneDiagnostic{"Read local file data source error", "The file at given path cannot be read.\n\n+Original Error: open nope: no such file or directory"}
	const token = "local:index:local_file"
	cases := map[string]struct {
		err                   error
		wantSummary, wantDetl string
	}{
		"one diagnostic, wrapped": {fmt.Errorf("invoking %s: %w", token, read), "Read local file data source error",
			"The file at given path cannot be read.\n\n+Original Error: open nope: no such file or directory\n\nThe provider reported this while reading data.local_file.gone."},
		"several diagnostics": {fmt.Errorf("invoking %s: %w", token, oneDiagnostic{detail: "x"}), "Failed to read data source",
			"Reading data.local_file.gone failed: provider local reported an error: ."},
		"not a provider's diagnostic": {fmt.Errorf("invoking %s: %w", token, errors.New("the plugin exited")), "Failed to read data source",
			"Reading data.local_file.gone failed: the plugin exited."},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			summary, detail := readFailure("data.local_file.gone", token, c.err)
			if diff := cmp.Diff(c.wantSummary, summary); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.wantDetl, detail); diff != "" {
				t.Errorf("detail (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutputTypesAreReported: the root outputs' types reach the
// OutputTypes hook as they reach the engine.
func TestOutputTypesAreReported(t *testing.T) {
	var got map[string]string
	opts := program.Options{OutputTypes: func(types map[string]json.RawMessage) {
		got = map[string]string{}
		for k, v := range types {
			got[k] = string(v)
		}
	}}
	config := `
output "s" { value = toset(["a"]) }
output "m" { value = tomap({ a = 1 }) }
`
	if _, err := runConfig(t, map[string]string{"main.tf": config}, opts, false); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"s": `["set","string"]`, "m": `["map","number"]`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output types (-want +got):\n%s", diff)
	}
}
