package hcl

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// scopedConfig has a check block with a data source read at once
// (static), one that fails to read (missing), and one that waits for a
// resource (probe).
const scopedConfig = `
resource "chk_file" "f" { filename = "made" }

check "static" {
  data "chk_file" "me" { filename = "main.tf" }
  assert {
    condition     = data.chk_file.me.filename == "other"
    error_message = "read ${data.chk_file.me.filename}"
  }
}

check "missing" {
  data "chk_file" "gone" { filename = "nope" }
  assert {
    condition     = data.chk_file.gone.content == "x"
    error_message = "never evaluated"
  }
}

check "probe" {
  data "chk_file" "probe" { filename = chk_file.f.filename }
  assert {
    condition     = data.chk_file.probe.filename == "made"
    error_message = "probe differs"
  }
}

output "made" { value = chk_file.f.filename }
`

// scopedRun is what a run of scopedConfig told its options.
type scopedRun struct {
	mu       sync.Mutex
	warnings []string // file:line:col summary: detail's last line
	reads    map[string]program.DeferReason
	args     map[string]resource.Object
}

func (s *scopedRun) options() program.Options {
	s.reads, s.args = map[string]program.DeferReason{}, map[string]resource.Object{}
	return program.Options{
		Warn: func(d program.Diagnostic) {
			s.mu.Lock()
			defer s.mu.Unlock()
			lines := strings.Split(d.Detail, "\n")
			s.warnings = append(s.warnings, fmt.Sprintf("%s:%d:%d %s: %s", filepath.Base(d.File), d.Line, d.Column, d.Summary, lines[len(lines)-1]))
		},
		DeferredRead: func(d program.DeferredRead) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.reads[d.Address], s.args[d.Address] = d.Reason, d.Args
		},
	}
}

// TestScopedDataSources: a data source nested in a check block is read
// during the preview and again during the update; a failed read is a
// warning at the data block that skips its check's assertions; the
// assertions use what was read, and those a preview cannot evaluate yet
// warn that they are known after apply; the preview lists each read with
// terraform's reason.
func TestScopedDataSources(t *testing.T) {
	failGone := func(req engine.InvokeRequest) error {
		if req.Args["filename"].Str() == "nope" {
			return errors.New("open nope: no such file or directory")
		}
		return nil
	}
	missing := "main.tf:13:3 Failed to read data source: Reading data.chk_file.gone, nested in check \"missing\", failed: open nope: no such file or directory. As the data source is nested in a check block, this is a warning: the check's assertions were not evaluated, and nothing else is stopped. Fix the data source's arguments, or what it reads."
	static := "main.tf:7:21 Check block assertion failed: read main.tf"
	tests := map[string]struct {
		preview   bool
		invokes   int
		warnings  []string
		reads     map[string]program.DeferReason
		staticArg resource.Object
	}{
		"preview": {preview: true, invokes: 2, warnings: []string{missing,
			"main.tf:23:21 Check block assertion known after apply: The condition could not be evaluated at this time, a result will be known when this plan is applied.",
			static},
			reads: map[string]program.DeferReason{"data.chk_file.me": program.ReadCheckNested,
				"data.chk_file.gone": program.ReadCheckNested, "data.chk_file.probe": program.ReadDependencyPending},
			staticArg: resource.Object{"filename": resource.NewString("main.tf"), "read": resource.NewBool(true)}},
		"update": {invokes: 3, warnings: []string{missing, static},
			reads: map[string]program.DeferReason{"data.chk_file.me": program.ReadCheckNested,
				"data.chk_file.gone": program.ReadCheckNested, "data.chk_file.probe": program.ReadCheckNested},
			staticArg: resource.Object{"filename": resource.NewString("main.tf"), "read": resource.NewBool(true)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got scopedRun
			mon, err := runConfigOn(t, map[string]string{"main.tf": scopedConfig}, got.options(), &fakeMonitor{preview: tc.preview, readErr: failGone})
			if err != nil {
				t.Fatalf("a check block's failures stopped the run: %v", err)
			}
			if len(mon.invokes) != tc.invokes {
				t.Errorf("%d data sources read, want %d", len(mon.invokes), tc.invokes)
			}
			sort.Strings(got.warnings)
			if diff := cmp.Diff(tc.warnings, got.warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.reads, got.reads); diff != "" {
				t.Errorf("reads the preview lists (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.staticArg, got.args["data.chk_file.me"], cmp.AllowUnexported(resource.Value{})); diff != "" {
				t.Errorf("what the preview shows of data.chk_file.me (-want +got):\n%s", diff)
			}
			if got := mon.outputs["made"]; !tc.preview && got.Str() != "made" {
				t.Errorf("output made = %s, want \"made\"", got)
			}
		})
	}
}

// TestScopedDataSourceErrors: only its check block may refer to a
// scoped data source, and it takes neither count nor for_each, as
// terraform has it.
func TestScopedDataSourceErrors(t *testing.T) {
	tests := map[string]struct {
		text string
		want []string
	}{
		"referred to outside its check": {text: `
check "c" {
  data "chk_file" "d" { filename = "x" }
  assert {
    condition     = data.chk_file.d.filename == "x"
    error_message = "differs"
  }
}
output "o" { value = data.chk_file.d.filename }
`, want: []string{"main.tf:9:22", "Reference to scoped resource", `nested in check "c", and only that check block may refer to it`}},
		"counted": {text: `
check "c" {
  data "chk_file" "d" {
    count    = 2
    filename = "x"
  }
}
`, want: []string{"main.tf:4:16", `Invalid "count" attribute`, "not supported within nested data blocks"}},
		"for_each": {text: `
check "c" {
  data "chk_file" "d" {
    for_each = toset(["a"])
    filename = each.key
  }
}
`, want: []string{"main.tf:4:16", `Invalid "count" attribute`, `move the data block out of check "c"`}},
		"duplicate of a top-level data block": {text: `
data "chk_file" "d" { filename = "y" }
check "c" {
  data "chk_file" "d" { filename = "x" }
}
`, want: []string{"main.tf:4:3", "Duplicate"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := loadFiles(t, map[string]string{"main.tf": tc.text})
			if err == nil {
				t.Fatal("loaded without error")
			}
			if !containsAll(err.Error(), tc.want...) {
				t.Errorf("error does not say %q:\n%v", tc.want, err)
			}
		})
	}
}

// oneDiagnostic is a fake of tfplugin.Error holding one diagnostic, or
// several (summary "").
type oneDiagnostic struct{ summary, detail string }

func (e oneDiagnostic) Error() string   { return "provider local reported an error: " + e.summary }
func (e oneDiagnostic) Summary() string { return e.summary }
func (e oneDiagnostic) Detail() string  { return e.detail }

// TestScopedFailureShowsTheProviderDiagnostic: a failed read of a data
// source nested in a check block is warned with the provider's own
// summary and detail, as terraform does, found through wrapping; other
// errors keep plinth's summary.
func TestScopedFailureShowsTheProviderDiagnostic(t *testing.T) {
	read := oneDiagnostic{"Read local file data source error", "The file at given path cannot be read."}
	cases := map[string]struct {
		err                      error
		wantSummary, detailStart string
	}{
		"one diagnostic, wrapped": {fmt.Errorf("reading data.local_file.gone: %w", read),
			"Read local file data source error", "The file at given path cannot be read.\n\nReading data.local_file.gone, nested in check \"c\", failed."},
		"several diagnostics": {oneDiagnostic{detail: "x"},
			"Failed to read data source", "Reading data.local_file.gone, nested in check \"c\", failed: provider local reported an error: ."},
		"not a provider's diagnostic": {errors.New("the plugin exited"),
			"Failed to read data source", "Reading data.local_file.gone, nested in check \"c\", failed: the plugin exited."},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			summary, detail := scopedFailure("data.local_file.gone", "c", c.err)
			if diff := cmp.Diff(c.wantSummary, summary); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(detail, c.detailStart) || !strings.Contains(detail, "this is a warning") {
				t.Errorf("detail = %q, want it to start %q and say it is a warning", detail, c.detailStart)
			}
		})
	}
}
