package tfplugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	plschema "github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// These tests drive real providers (built by TestMain) through the adapter.

// lifecycle runs the engine's calls for one resource against a provider.
type lifecycle struct {
	t   *testing.T
	p   *Provider
	urn resource.URN
}

func (l lifecycle) check(news resource.Object) {
	l.t.Helper()
	resp, err := l.p.Check(context.Background(), provider.CheckRequest{URN: l.urn, News: news})
	mustOK(l.t, "Check", err)
	if len(resp.Failures) > 0 {
		l.t.Fatalf("Check failures: %v", resp.Failures)
	}
}

func (l lifecycle) create(inputs resource.Object) provider.CreateResponse {
	l.t.Helper()
	l.check(inputs)
	resp, err := l.p.Create(context.Background(), provider.CreateRequest{URN: l.urn, Inputs: inputs})
	mustOK(l.t, "Create", err)
	if resp.ID == "" {
		l.t.Fatalf("Create returned no ID")
	}
	return resp
}

func (l lifecycle) diff(olds resource.Object, cr provider.CreateResponse, news resource.Object) provider.DiffResponse {
	l.t.Helper()
	resp, err := l.p.Diff(context.Background(), provider.DiffRequest{
		URN: l.urn, ID: cr.ID, OldInputs: olds, OldOutputs: cr.Outputs, News: news, Private: cr.Private,
	})
	mustOK(l.t, "Diff", err)
	return resp
}

func (l lifecycle) read(id string, inputs, state resource.Object, priv []byte) provider.ReadResponse {
	l.t.Helper()
	resp, err := l.p.Read(context.Background(), provider.ReadRequest{URN: l.urn, ID: id, Inputs: inputs, State: state, Private: priv})
	mustOK(l.t, "Read", err)
	return resp
}

func (l lifecycle) delete(id string, inputs, outputs resource.Object, priv []byte) {
	l.t.Helper()
	_, err := l.p.Delete(context.Background(), provider.DeleteRequest{URN: l.urn, ID: id, Inputs: inputs, Outputs: outputs, Private: priv})
	mustOK(l.t, "Delete", err)
}

func TestRealRandomPetReplaceOnKeepers(t *testing.T) {
	l := lifecycle{t, startReal(t, "random", "", nil), urn("random_pet", "pet")}
	inputs := obj(map[string]any{"length": 3, "separator": "_", "keepers": map[string]any{"k": "a"}})

	preview, err := l.p.Create(context.Background(), provider.CreateRequest{URN: l.urn, Inputs: inputs, Preview: true})
	mustOK(t, "Create preview", err)
	if !preview.Outputs["id"].IsUnknown() || preview.ID != "" {
		t.Errorf("preview: id %v (ID %q), want unknown and no ID", preview.Outputs["id"], preview.ID)
	}
	cr := l.create(inputs)
	if got := strings.Count(cr.ID, "_"); got != 2 {
		t.Errorf("pet %q has %d separators, want 2", cr.ID, got)
	}
	if d := l.diff(inputs, cr, inputs); d.Changes != provider.DiffNone {
		t.Errorf("Diff of unchanged inputs: %+v, want no changes", d)
	}
	news := obj(map[string]any{"length": 3, "separator": "_", "keepers": map[string]any{"k": "b"}})
	d := l.diff(inputs, cr, news)
	// The new pet's id is not known until it is made: the change shown is
	// to a new object, as terraform shows a replacement.
	want := provider.DiffResponse{
		Changes: provider.DiffSome, ReplaceKeys: []string{"keepers"}, ChangedKeys: []string{"id", "keepers"},
		DeleteBeforeReplace: true,
		DetailedDiff:        resource.DetailedDiff{"id": {Kind: resource.DiffUpdate}, "keepers.k": {Kind: resource.DiffUpdate, Replace: true}},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("Diff on a keeper change (-want +got):\n%s", diff)
	}
	l.delete(cr.ID, inputs, cr.Outputs, cr.Private)
}

func TestRealTimeOffsetUpdateInPlace(t *testing.T) {
	l := lifecycle{t, startReal(t, "time", "", nil), urn("time_offset", "off")}
	base := "2020-01-01T00:00:00Z"
	olds := obj(map[string]any{"base_rfc3339": base, "offset_days": 1})
	cr := l.create(olds)
	if got := cr.Outputs["rfc3339"].Str(); got != "2020-01-02T00:00:00Z" {
		t.Errorf("rfc3339 after create = %q", got)
	}
	news := obj(map[string]any{"base_rfc3339": base, "offset_days": 2})
	d := l.diff(olds, cr, news)
	if d.Changes != provider.DiffSome || d.Replaces() {
		t.Fatalf("Diff = %+v, want an in-place update", d)
	}
	req := provider.UpdateRequest{URN: l.urn, ID: cr.ID, OldInputs: olds, OldOutputs: cr.Outputs, News: news, Private: cr.Private}
	req.Preview = true
	pv, err := l.p.Update(context.Background(), req)
	mustOK(t, "Update preview", err)
	if got := pv.Outputs["rfc3339"].Str(); got != "2020-01-03T00:00:00Z" {
		t.Errorf("preview rfc3339 = %q (time computes offsets when planning)", got)
	}
	l.diff(olds, cr, news) // the engine diffs again before the real update
	req.Preview = false
	up, err := l.p.Update(context.Background(), req)
	mustOK(t, "Update", err)
	if got := up.Outputs["rfc3339"].Str(); got != "2020-01-03T00:00:00Z" {
		t.Errorf("rfc3339 after update = %q", got)
	}
	if got := up.Outputs["id"].Str(); got != cr.ID {
		t.Errorf("id changed in an in-place update: %q -> %q", cr.ID, got)
	}
}

// A relative filename lands in the project directory; refresh notices a
// file deleted or edited outside (the local provider forgets a file whose
// content changed), and Delete removes it.
func TestRealLocalFileRefreshAndDelete(t *testing.T) {
	dir := t.TempDir()
	l := lifecycle{t, startReal(t, "local", dir, nil), urn("local_file", "f")}
	path := filepath.Join(dir, "out.txt")
	for name, outside := range map[string]func() error{
		"deleted": func() error { return os.Remove(path) },
		"edited":  func() error { return os.WriteFile(path, []byte("changed"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			l.t = t
			inputs := obj(map[string]any{"filename": "out.txt", "content": "hello"})
			cr := l.create(inputs)
			if b, err := os.ReadFile(path); err != nil || string(b) != "hello" {
				t.Fatalf("file in the project directory: %q, %v", b, err)
			}
			rd := l.read(cr.ID, inputs, cr.Outputs, cr.Private)
			if rd.ID != cr.ID || !rd.Outputs.Equal(cr.Outputs) {
				t.Errorf("refresh of an untouched file: ID %q, outputs %v; want %q, %v", rd.ID, rd.Outputs, cr.ID, cr.Outputs)
			}
			if diff := cmp.Diff(inputs, rd.Inputs, cmp.Comparer(resource.Value.Equal)); diff != "" {
				t.Errorf("refreshed inputs (-want +got):\n%s", diff)
			}
			mustOK(t, "outside change", outside())
			if rd := l.read(cr.ID, inputs, cr.Outputs, cr.Private); rd.ID != "" {
				t.Errorf("refresh after the file was %s: ID %q, want empty", name, rd.ID)
			}
			os.Remove(path)
		})
	}
	l.t = t
	inputs := obj(map[string]any{"filename": "gone.txt", "content": "x"})
	cr := l.create(inputs)
	l.delete(cr.ID, inputs, cr.Outputs, cr.Private)
	if _, err := os.Stat(filepath.Join(dir, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("file still there after Delete: %v", err)
	}
}

func TestRealImport(t *testing.T) {
	p := startReal(t, "random", "", nil)
	tests := map[string]struct {
		typ, id    string
		wantInputs resource.Object
		wantResult resource.Value
	}{
		"random_string": {
			typ: "random_string", id: "abc123",
			wantInputs: obj(map[string]any{"length": 6, "lower": true, "min_lower": 0, "min_numeric": 0, "min_special": 0,
				"min_upper": 0, "numeric": true, "special": true, "upper": true}), // not the deprecated number
			wantResult: resource.NewString("abc123"),
		},
		"random_integer": {
			typ: "random_integer", id: "15,1,20",
			wantInputs: obj(map[string]any{"min": 1, "max": 20}),
			wantResult: resource.NewNumber(15),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l := lifecycle{t, p, urn(tc.typ, "imported")}
			rd := l.read(tc.id, nil, nil, nil)
			if diff := cmp.Diff(tc.wantInputs, rd.Inputs, cmp.Comparer(resource.Value.Equal)); diff != "" {
				t.Errorf("imported inputs (-want +got):\n%s", diff)
			}
			if got := rd.Outputs["result"]; !got.Equal(tc.wantResult) {
				t.Errorf("imported result %v, want %v", got, tc.wantResult)
			}
			l.check(rd.Inputs)
			cr := provider.CreateResponse{ID: rd.ID, Outputs: rd.Outputs, Private: rd.Private}
			if d := l.diff(rd.Inputs, cr, rd.Inputs); d.Changes != provider.DiffNone {
				t.Errorf("Diff right after import: %+v, want none", d)
			}
		})
	}
}

func TestRealLocalFileDataSource(t *testing.T) {
	dir := t.TempDir()
	mustOK(t, "write", os.WriteFile(filepath.Join(dir, "in.txt"), []byte("data source"), 0o644))
	p := startReal(t, "local", dir, nil)
	resp, err := p.Invoke(context.Background(), provider.InvokeRequest{
		Token: "local:index:local_file", Args: obj(map[string]any{"filename": "in.txt"}),
	})
	mustOK(t, "Invoke", err)
	if len(resp.Failures) > 0 {
		t.Fatalf("failures: %v", resp.Failures)
	}
	if got := resp.Return["content"].Str(); got != "data source" {
		t.Errorf("content = %q", got)
	}
	missing, err := p.Invoke(context.Background(), provider.InvokeRequest{
		Token: "local:index:local_file", Args: obj(map[string]any{"filename": "nope.txt"}),
	})
	if err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("Invoke of a missing file = %+v, %v; want an error naming it", missing, err)
	}
}

func TestRealSensitiveOutputsAreSecrets(t *testing.T) {
	tests := map[string]struct {
		provider, typ string
		inputs        resource.Object
		secret        []string
		plain         []string
	}{
		"random_password": {"random", "random_password", obj(map[string]any{"length": 12}), []string{"result", "bcrypt_hash"}, []string{"length"}},
		"tls_private_key": {"tls", "tls_private_key", obj(map[string]any{"algorithm": "ECDSA", "ecdsa_curve": "P256"}),
			[]string{"private_key_pem", "private_key_openssh"}, []string{"public_key_pem"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			l := lifecycle{t, startReal(t, tc.provider, "", nil), urn(tc.typ, "s")}
			cr := l.create(tc.inputs)
			for _, k := range tc.secret {
				if v := cr.Outputs[k]; !v.IsSecret() || v.SecretElement().Str() == "" {
					t.Errorf("%s = %v, want a non-empty secret", k, v)
				}
			}
			for _, k := range tc.plain {
				if v := cr.Outputs[k]; v.IsSecret() || v.IsNull() {
					t.Errorf("%s = %v, want a plain value", k, v)
				}
			}
			// Stored and loaded again, secrets go back to the provider as plain values.
			if d := l.diff(tc.inputs, cr, tc.inputs); d.Changes != provider.DiffNone {
				t.Errorf("Diff after create: %+v", d)
			}
		})
	}
}

// A secret input is sent as a plain value and its output stays secret.
func TestRealSecretInput(t *testing.T) {
	dir := t.TempDir()
	l := lifecycle{t, startReal(t, "local", dir, nil), urn("local_file", "s")}
	inputs := resource.Object{"filename": resource.NewString("s.txt"), "content": resource.MakeSecret(resource.NewString("hush"))}
	cr := l.create(inputs)
	if b, _ := os.ReadFile(filepath.Join(dir, "s.txt")); string(b) != "hush" {
		t.Errorf("file content %q, want the secret's plain value", b)
	}
	if v := cr.Outputs["content"]; !v.IsSecret() {
		t.Errorf("content output %v, want a secret", v)
	}
}

// A sensitive input (local_sensitive_file's content) comes back from
// Check as a secret, so the engine records and shows it as one.
func TestRealSensitiveInputIsSecret(t *testing.T) {
	l := lifecycle{t, startReal(t, "local", t.TempDir(), nil), urn("local_sensitive_file", "s")}
	inputs := obj(map[string]any{"filename": "s.txt", "content": "hush"})
	resp, err := l.p.Check(context.Background(), provider.CheckRequest{URN: l.urn, News: inputs})
	mustOK(t, "Check", err)
	want := resource.Object{"filename": resource.NewString("s.txt"), "content": resource.MakeSecret(resource.NewString("hush"))}
	if diff := cmp.Diff(want, resp.Inputs, cmp.Comparer(resource.Value.Equal)); diff != "" || len(resp.Failures) > 0 {
		t.Errorf("checked inputs (-want +got):\n%s\nfailures: %v", diff, resp.Failures)
	}
}

func TestRealInvalidConfiguration(t *testing.T) {
	p := startReal(t, "random", "", nil)
	tests := map[string]struct {
		typ    string
		inputs resource.Object
		want   []provider.CheckFailure
	}{
		"provider validator": {"random_password", obj(map[string]any{"length": 0}), []provider.CheckFailure{
			{Property: "length", Reason: "Invalid Attribute Value: Attribute length value must be at least 1, got: 0"}}},
		"wrong type": {"random_integer", obj(map[string]any{"min": 1, "max": "many"}), []provider.CheckFailure{
			{Property: "max", Reason: `expected a number, found the string "many"`}}},
		"missing required": {"random_integer", obj(map[string]any{"min": 1}), []provider.CheckFailure{
			{Property: "max", Reason: "missing required property"}}},
		"computed only": {"random_pet", obj(map[string]any{"id": "x"}), []provider.CheckFailure{
			{Property: "id", Reason: "this property is set by the provider and cannot be configured; remove it"}}},
		"unknown property": {"random_pet", obj(map[string]any{"lenght": 2}), []provider.CheckFailure{
			{Property: "lenght", Reason: `unsupported property "lenght"; the schema has ["id" "keepers" "length" "prefix" "separator"]`}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := p.Check(context.Background(), provider.CheckRequest{URN: urn(tc.typ, "bad"), News: tc.inputs})
			mustOK(t, "Check", err)
			if diff := cmp.Diff(tc.want, resp.Failures); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

// Integers beyond a double's precision keep every digit both ways.
func TestRealLargeIntegers(t *testing.T) {
	l := lifecycle{t, startReal(t, "random", "", nil), urn("random_integer", "big")}
	big, err := resource.ParseNumber("9007199254740993") // 2^53 + 1
	mustOK(t, "ParseNumber", err)
	inputs := resource.Object{"min": big, "max": big}
	cr := l.create(inputs)
	if got := cr.Outputs["result"]; got.NumberLiteral() != "9007199254740993" {
		t.Errorf("result = %s, want 9007199254740993", got.NumberLiteral())
	}
	if d := l.diff(inputs, cr, inputs); d.Changes != provider.DiffNone {
		t.Errorf("Diff after create: %+v", d)
	}
}

func TestRealFunctionCall(t *testing.T) {
	p := startReal(t, "time", "", nil)
	resp, err := p.Invoke(context.Background(), provider.InvokeRequest{
		Token: FunctionToken("time", "rfc3339_parse"), Args: obj(map[string]any{"timestamp": "2023-07-25T23:43:16Z"}),
	})
	mustOK(t, "Invoke", err)
	got := resp.Return["result"].Object()
	if got["year"].Number() != 2023 || got["month_name"].Str() != "July" || got["unix"].Number() != 1690328596 {
		t.Errorf("result = %v", resp.Return)
	}
	bad, err := p.Invoke(context.Background(), provider.InvokeRequest{
		Token: FunctionToken("time", "rfc3339_parse"), Args: obj(map[string]any{"timestamp": "nope"}),
	})
	mustOK(t, "Invoke", err)
	if len(bad.Failures) != 1 || bad.Failures[0].Property != "timestamp" {
		t.Errorf("failures = %v, want one for timestamp", bad.Failures)
	}
}

func TestRealSchema(t *testing.T) {
	p := startReal(t, "tls", "", nil)
	resp, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	mustOK(t, "GetSchema", err)
	s := resp.Schema
	key, ok := s.Resources["tls:index:tls_private_key"]
	if !ok {
		t.Fatalf("no tls:index:tls_private_key in %v", s.ResourceTypes())
	}
	if _, ok := key.Inputs["private_key_pem"]; ok {
		t.Errorf("private_key_pem is computed only; it must not be an input")
	}
	if !key.Outputs["private_key_pem"].Secret || key.Outputs["public_key_pem"].Secret {
		t.Errorf("secret flags: private_key_pem %v, public_key_pem %v", key.Outputs["private_key_pem"].Secret, key.Outputs["public_key_pem"].Secret)
	}
	if !key.Inputs["algorithm"].Required {
		t.Errorf("algorithm is required")
	}
	cert := s.Resources["tls:index:tls_self_signed_cert"]
	subj := cert.Inputs["subject"].Type
	if subj.Kind != plschema.TypeArray || subj.Elem.Kind != plschema.TypeObject || subj.Elem.Properties["common_name"].Type.Kind != plschema.TypeString {
		t.Errorf("subject block type = %+v, want a list of objects with common_name", subj)
	}
	if _, ok := s.Functions["tls:index:tls_public_key"]; !ok {
		t.Errorf("data source tls_public_key missing from functions")
	}
	if _, ok := s.Config["proxy"]; !ok {
		t.Errorf("provider config lacks the proxy block: %v", s.Config)
	}
}

// A nested block (tls_self_signed_cert's subject, a list of at most one)
// goes through check, plan, apply and a no-change diff.
func TestRealNestedBlock(t *testing.T) {
	p := startReal(t, "tls", "", nil)
	key := lifecycle{t, p, urn("tls_private_key", "k")}.create(obj(map[string]any{"algorithm": "ED25519"}))
	l := lifecycle{t, p, urn("tls_self_signed_cert", "c")}
	inputs := resource.Object{
		"private_key_pem":       key.Outputs["private_key_pem"],
		"validity_period_hours": resource.NewNumber(24),
		"allowed_uses":          resource.MustFromGo([]any{"digital_signature", "server_auth"}),
		"subject":               resource.MustFromGo([]any{map[string]any{"common_name": "plinth.test", "organization": "Plinth"}}),
	}
	cr := l.create(inputs)
	subj := cr.Outputs["subject"].Array()
	if len(subj) != 1 || subj[0].Object()["common_name"].Str() != "plinth.test" {
		t.Errorf("subject = %v", cr.Outputs["subject"])
	}
	if !strings.HasPrefix(cr.Outputs["cert_pem"].SecretElement().Str(), "-----BEGIN CERTIFICATE-----") {
		t.Errorf("cert_pem = %v", cr.Outputs["cert_pem"])
	}
	if !cr.Outputs["private_key_pem"].IsSecret() {
		t.Errorf("private_key_pem came from a secret input but is not secret")
	}
	if d := l.diff(inputs, cr, inputs); d.Changes != provider.DiffNone {
		t.Errorf("Diff after create: %+v", d)
	}
	changed := inputs.Copy()
	changed["subject"] = resource.MustFromGo([]any{map[string]any{"common_name": "other.test", "organization": "Plinth"}})
	if d := l.diff(inputs, cr, changed); !d.Replaces() || d.DetailedDiff["subject[0].common_name"].Kind != resource.DiffUpdate {
		t.Errorf("Diff on a subject change = %+v, want a replacement at subject[0].common_name", d)
	}
}

// TestRealRecoveredResourceIsUnchanged: a pending create resolved with
// an ID (plinth state pending --import) is recorded with its inputs as its
// state and no private data; the refresh that follows must read it in
// full, so that the next plan finds nothing to change.
func TestRealRecoveredResourceIsUnchanged(t *testing.T) {
	for _, tc := range []struct {
		provider, tfType string
		inputs           map[string]any
	}{
		{"local", "local_file", map[string]any{"filename": "out.txt", "content": "hello"}},
		{"random", "random_pet", map[string]any{"length": 3}},
	} {
		t.Run(tc.tfType, func(t *testing.T) {
			dir := t.TempDir()
			l := lifecycle{t, startReal(t, tc.provider, dir, nil), urn(tc.tfType, "r")}
			inputs := obj(tc.inputs)
			cr := l.create(inputs)
			// What state pending --import records: the inputs as outputs.
			rd := l.read(cr.ID, inputs, inputs.Copy(), nil)
			if rd.ID != cr.ID {
				t.Fatalf("refresh of the recovered resource: ID %q, want %q", rd.ID, cr.ID)
			}
			d, err := l.p.Diff(context.Background(), provider.DiffRequest{URN: l.urn, ID: rd.ID, OldInputs: rd.Inputs, OldOutputs: rd.Outputs, News: inputs, Private: rd.Private})
			mustOK(t, "Diff", err)
			if d.Changes != provider.DiffNone {
				t.Errorf("Diff after recovery = %+v, want no changes", d)
			}
		})
	}
}
