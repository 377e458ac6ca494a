package tfplugin

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// startFake starts this test binary as a fake provider in the given mode.
func startFake(t *testing.T, mode string) *Provider {
	t.Helper()
	return startFakeWarn(t, mode, nil)
}

func startFakeWarn(t *testing.T, mode string, warn func(string)) *Provider {
	t.Helper()
	exe, err := os.Executable()
	mustOK(t, "os.Executable", err)
	p, err := Start(context.Background(), Config{
		Path: exe, Dir: t.TempDir(), Name: "fake", Version: "1.0.0", Env: []string{fakeModeEnv + "=" + mode}, Warn: warn,
	})
	mustOK(t, "Start", err)
	t.Cleanup(func() { p.Close() })
	_, err = p.Configure(context.Background(), provider.ConfigureRequest{})
	mustOK(t, "Configure", err)
	return p
}

func TestFaultInconsistentApply(t *testing.T) {
	p := startFake(t, modeInconsistent)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"})})
	var init *provider.InitError
	if !errors.As(err, &init) {
		t.Fatalf("Create error = %v, want an InitError (the object exists)", err)
	}
	want := []string{`provider fake produced an inconsistent result after apply during Create of fake_thing "t": out: was "planned", but now "applied". This is a bug in the provider; report it to its maintainers`}
	if diff := cmp.Diff(want, init.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if init.ID != "thing-1" {
		t.Errorf("ID = %q, want the created object's", init.ID)
	}
}

func TestFaultInconsistentFinalPlan(t *testing.T) {
	p := startFake(t, modeReplan)
	ctx := context.Background()
	u := urn("fake_thing", "t")
	olds := obj(map[string]any{"value": "a"})
	cr, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: olds})
	mustOK(t, "Create", err)
	news := obj(map[string]any{"value": "b"})
	d, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: cr.ID, OldInputs: olds, OldOutputs: cr.Outputs, News: news, Private: cr.Private})
	mustOK(t, "Diff", err)
	if d.Changes != provider.DiffSome || d.Replaces() {
		t.Fatalf("Diff = %+v, want an update", d)
	}
	_, err = p.Update(ctx, provider.UpdateRequest{URN: u, ID: cr.ID, OldInputs: olds, OldOutputs: cr.Outputs, News: news, Private: cr.Private})
	var inc *InconsistentError
	if !errors.As(err, &inc) {
		t.Fatalf("Update error = %v, want an InconsistentError", err)
	}
	want := &InconsistentError{Provider: "fake", Operation: `Update of fake_thing "t"`, Stage: "final plan",
		Attributes: []string{`out: was "plan 2", but now "plan 3"`}}
	if diff := cmp.Diff(want, inc); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

func TestFaultProviderCrash(t *testing.T) {
	p := startFake(t, modeCrash)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"})})
	if err == nil {
		t.Fatal("Create succeeded on a crashing provider")
	}
	for _, want := range []string{"provider fake crashed during ApplyResourceChange for Create of fake_thing \"t\"", "giving up in the middle of apply"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "u"), Inputs: obj(map[string]any{"value": "v"})}); err == nil {
		t.Errorf("a call after the crash succeeded")
	}
}

func TestFaultPartialCreate(t *testing.T) {
	p := startFake(t, modePartial)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"})})
	var init *provider.InitError
	if !errors.As(err, &init) {
		t.Fatalf("Create error = %v, want an InitError", err)
	}
	want := &provider.InitError{
		ID:      "thing-1",
		Outputs: obj(map[string]any{"id": "thing-1", "value": "v", "out": "planned"}),
		Private: encodePrivate(0, nil),
		Reasons: []string{"property out: Creation failed halfway: the thing exists but is not ready"},
	}
	if diff := cmp.Diff(want, init, cmp.Comparer(resource.Value.Equal)); diff != "" {
		t.Errorf("InitError (-want +got):\n%s", diff)
	}
}

// Protocol 6 with nested attributes: negotiated, planned and applied, and
// checked property by property inside the nesting.
func TestProtocol6NestedAttributes(t *testing.T) {
	p := startFake(t, modeNested6)
	if p.Protocol() != 6 {
		t.Fatalf("protocol %d, want 6", p.Protocol())
	}
	ctx := context.Background()
	u := urn("fake_rules", "r")
	bad, err := p.Check(ctx, provider.CheckRequest{URN: u, News: obj(map[string]any{"rules": []any{map[string]any{"nmae": "x"}}})})
	mustOK(t, "Check", err)
	wantFailures := []provider.CheckFailure{
		{Property: "rules[0].nmae", Reason: `unsupported property "nmae"`},
		{Property: "rules[0].name", Reason: "missing required property"},
	}
	if diff := cmp.Diff(wantFailures, bad.Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	inputs := obj(map[string]any{"rules": []any{map[string]any{"name": "web"}, map[string]any{"name": "alt", "port": 8080}}})
	cr, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: inputs})
	mustOK(t, "Create", err)
	want := obj(map[string]any{"id": "rules-1", "rules": []any{
		map[string]any{"name": "web", "port": 80}, map[string]any{"name": "alt", "port": 8080}}})
	if diff := cmp.Diff(want, cr.Outputs, cmp.Comparer(resource.Value.Equal)); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	d, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, News: inputs, Private: cr.Private})
	mustOK(t, "Diff", err)
	if d.Changes != provider.DiffNone {
		t.Errorf("Diff of unchanged inputs = %+v (the computed port must keep its prior value)", d)
	}
	rd, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: cr.ID, Inputs: inputs, State: cr.Outputs, Private: cr.Private})
	mustOK(t, "Read", err)
	if rd.ID != "rules-1" || !rd.Outputs.Equal(cr.Outputs) {
		t.Errorf("Read = %q %v, want the created state", rd.ID, rd.Outputs)
	}
	chk, err := p.CheckConfig(ctx, provider.CheckRequest{News: obj(map[string]any{"version": "1.0.0"})})
	mustOK(t, "CheckConfig", err)
	if len(chk.Failures) > 0 {
		t.Errorf("CheckConfig failures: %v", chk.Failures)
	}
	_, err = p.Delete(ctx, provider.DeleteRequest{URN: u, ID: cr.ID, Inputs: inputs, Outputs: cr.Outputs, Private: cr.Private})
	mustOK(t, "Delete", err)
}

func TestWarningsReachWarn(t *testing.T) {
	var warnings []string
	p := startFakeWarn(t, modeInconsistent, func(m string) { warnings = append(warnings, m) })
	resp, err := p.Check(context.Background(), provider.CheckRequest{URN: urn("fake_thing", "t"), News: obj(map[string]any{"value": "deprecated"})})
	mustOK(t, "Check", err)
	if len(resp.Failures) > 0 {
		t.Errorf("a warning failed the check: %v", resp.Failures)
	}
	want := []string{`provider fake warned during Check of fake_thing "t": property value: Deprecated value: use another one`}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// Stored state is upgraded with the schema version it was written with, and
// what comes back is recorded at the current version.
func TestUpgradeFromStoredVersion(t *testing.T) {
	p := startFake(t, modeUpgrade)
	state := obj(map[string]any{"id": "thing-1", "old_value": "v", "out": "planned"})
	resp, err := p.Read(context.Background(), provider.ReadRequest{
		URN: urn("fake_thing", "t"), ID: "thing-1", Inputs: obj(map[string]any{"value": "v"}),
		State: state, Private: encodePrivate(1, []byte("p")),
	})
	mustOK(t, "Read", err)
	want := obj(map[string]any{"id": "thing-1", "value": "v", "out": "planned"})
	if diff := cmp.Diff(want, resp.Outputs, cmp.Comparer(resource.Value.Equal)); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	pd, err := decodePrivate(resp.Private)
	mustOK(t, "decodePrivate", err)
	if pd.schemaVersion != 2 || string(pd.tf) != "p" {
		t.Errorf("private = version %d, %q; want version 2 and the provider's bytes kept", pd.schemaVersion, pd.tf)
	}
}

func TestStartFailures(t *testing.T) {
	tests := map[string]struct {
		path string
		want string
	}{
		"missing binary": {"/nonexistent/terraform-provider-gone_v1.0.0", "starting Terraform provider gone (/nonexistent/terraform-provider-gone_v1.0.0)"},
		"not a plugin":   {"/bin/true", "starting Terraform provider true (/bin/true)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := Start(context.Background(), Config{Path: tc.path, Dir: t.TempDir()})
			if err == nil {
				p.Close()
				t.Fatal("Start succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			t.Log(err)
		})
	}
}

// TestFaultOutcomeUnknown: an apply that ended without the provider's
// readable answer may have created something, so its error is
// provider.ErrOutcomeUnknown; errors a live provider reported with no
// object are a definite failure, and with an object an InitError.
func TestFaultOutcomeUnknown(t *testing.T) {
	tests := map[string]struct {
		mode    string
		timeout time.Duration
		cancel  bool
		unknown bool
	}{
		"crash":             {mode: modeCrash, unknown: true},
		"hang past timeout": {mode: modeHang, timeout: 200 * time.Millisecond, unknown: true},
		"hang, cancelled":   {mode: modeHang, cancel: true, unknown: true},
		"garbage state":     {mode: modeGarbage, unknown: true},
		"refused":           {mode: modeRefuse},
		"partial create":    {mode: modePartial},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := startFake(t, tc.mode)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			_, err := p.Create(ctx, provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"}), Timeout: tc.timeout})
			if err == nil {
				t.Fatal("Create succeeded")
			}
			if got := provider.IsOutcomeUnknown(err); got != tc.unknown {
				t.Errorf("IsOutcomeUnknown(%v) = %v, want %v", err, got, tc.unknown)
			}
		})
	}
}

// TestFaultHugeState: a state over provider.MaxStateBytes is refused with
// an error naming the resource; the object's ID is kept (an InitError), so
// nothing created is forgotten.
func TestFaultHugeState(t *testing.T) {
	p := startFake(t, modeHuge)
	u := urn("fake_thing", "t")
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: u, Inputs: obj(map[string]any{"value": "v"})})
	var init *provider.InitError
	if !errors.As(err, &init) || init.ID != "thing-1" {
		t.Fatalf("Create error = %v, want an InitError for thing-1", err)
	}
	if !init.Outputs["out"].IsNull() {
		t.Errorf("the huge output was kept")
	}
	for _, w := range []string{string(u), "over plinth's limit of 16 MiB"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

// TestFaultErrorWithNullID: errors with an object whose id is null name
// nothing that exists: a definite failure, not "resource none was created".
func TestFaultErrorWithNullID(t *testing.T) {
	p := startFake(t, modeNoID)
	_, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("fake_thing", "t"), Inputs: obj(map[string]any{"value": "v"})})
	var init *provider.InitError
	if err == nil || errors.As(err, &init) || provider.IsOutcomeUnknown(err) {
		t.Fatalf("Create error = %v, want a definite failure", err)
	}
	if strings.Contains(err.Error(), "none") || !strings.Contains(err.Error(), "Quota exceeded") {
		t.Errorf("error %q", err)
	}
}
