package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestAdditionalSecretOutputsAreSealed: the outputs additionalSecretOutputs
// names are secret in the record, so the stack file and the journal hold
// them sealed, not in plain text; the program gets them back secret; a
// refresh finds no drift in them; reads are covered as well as creates.
func TestAdditionalSecretOutputsAreSealed(t *testing.T) {
	h, _ := readHarness(t)
	h.world.things["ext-0"] = resource.Object{"token": resource.NewString("s3cr3t-read")}
	secret := func(r *engine.Registration) { r.AdditionalSecretOutputs = []string{"pw", "out", "token"} }
	var got engine.Registered
	p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
		var err error
		got, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Thing", Name: "a", Custom: true,
			Inputs: resource.Object{"pw": resource.NewString("hunter2")}, AdditionalSecretOutputs: []string{"pw", "out"}})
		if err != nil {
			return err
		}
		reg := engine.Registration{Type: "pkg:index:Thing", Name: "ext", Custom: true, ReadID: "ext-0", Inputs: resource.Object{}}
		secret(&reg)
		_, err = engine.RegisterAndWait(ctx, mon, reg)
		return err
	})
	j := state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatal(err)
	}
	h.snap = j.Snapshot()
	if !got.Outputs["pw"].IsSecret() || !got.Outputs["out"].IsSecret() {
		t.Errorf("the program got %v, want pw and out secret", got.Outputs)
	}
	c, err := secrets.NewCrypter(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	file, err := state.EncodeSnapshot(h.snap, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	stored := []string{string(file)}
	for _, e := range j.Entries() {
		data, err := state.EncodeEntry(e, c)
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, string(data))
	}
	for _, plain := range []string{"hunter2", "out-a-1", "s3cr3t-read"} {
		for _, s := range stored {
			if strings.Contains(s, plain) {
				t.Errorf("the stored state holds %q in plain text: %s", plain, s)
			}
		}
	}
	res, err := h.refresh()
	if err != nil {
		t.Fatal(err)
	}
	if res.HasChanges() {
		t.Errorf("a refresh found drift in sealed outputs: %v", res.Counts)
	}
	j = state.NewMemoryJournal(h.snap, state.VerifyEach(t))
	if _, err := engine.Update(context.Background(), p, h.snap, h.options(j)); err != nil {
		t.Fatal(err)
	}
	if n := len(j.Entries()); n != 0 {
		t.Errorf("a rerun wrote %d journal entries, e.g. %s %s of %s", n, j.Entries()[0].Kind, j.Entries()[0].Op, j.Entries()[0].New.URN)
	}
}

// echoInTheClear makes h's provider a secret-unaware echo (Pulumi's test
// provider Echo, a provider that does not accept secrets): Check returns
// the inputs, and Create, Update and Read the inputs as outputs, with
// every secret mark dropped, and Read returns the inputs so too.
func echoInTheClear(h *harness) {
	plain := func(o resource.Object) resource.Object {
		v, _ := resource.NewObject(o).Unsecret()
		return v.Object()
	}
	h.fake.CheckF = func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
		return provider.CheckResponse{Inputs: plain(req.News)}, nil
	}
	create, update, read := h.fake.CreateF, h.fake.UpdateF, h.fake.ReadF
	h.fake.CreateF = func(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
		resp, err := create(ctx, req)
		resp.Outputs = plain(resp.Outputs)
		return resp, err
	}
	h.fake.UpdateF = func(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
		resp, err := update(ctx, req)
		resp.Outputs = plain(resp.Outputs)
		return resp, err
	}
	h.fake.ReadF = func(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
		resp, err := read(ctx, req)
		resp.Inputs, resp.Outputs = plain(resp.Inputs), plain(resp.Outputs)
		return resp, err
	}
}

// TestOutputsDerivedFromSecretsAreSealed: a provider that echoes secret
// inputs back as plain checked inputs and outputs gets them sealed,
// property by property as sealDerived says: in what the program gets
// (preview and update), in the recorded inputs and outputs and the stored
// state, after an update and after a refresh whose Read returns
// everything in the clear; and no step finds drift in it.
func TestOutputsDerivedFromSecretsAreSealed(t *testing.T) {
	secret := func(s string) resource.Value { return resource.MakeSecret(resource.NewString(s)) }
	str := resource.NewString
	for name, tc := range map[string]struct {
		input resource.Value
		// want says, for each path (see echoAt), whether the output
		// there is secret as a whole.
		want map[string]bool
		// plaintexts must be stored nowhere.
		plaintexts []string
	}{
		"secret string": {input: secret("pw-Qm4vX1"), want: map[string]bool{"echo": true}, plaintexts: []string{"pw-Qm4vX1"}},
		"secret deep in a map": {
			input: resource.NewObject(resource.Object{"a": secret("pw-Zz83kP"), "b": str("visible")}),
			want:  map[string]bool{"echo": false, "echo.a": true, "echo.b": false}, plaintexts: []string{"pw-Zz83kP"},
		},
		"secret in a list": {
			input: resource.NewArray(str("visible"), secret("pw-Lq27nB")),
			want:  map[string]bool{"echo": false, "echo[0]": false, "echo[1]": true}, plaintexts: []string{"pw-Lq27nB"},
		},
		"no secret": {input: str("visible"), want: map[string]bool{"echo": false}},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			echoInTheClear(h)
			var got engine.Registered
			p := engine.ProgramFunc(func(ctx context.Context, mon engine.Monitor) error {
				var err error
				got, err = engine.RegisterAndWait(ctx, mon, engine.Registration{Type: "pkg:index:Echo", Name: "e", Custom: true,
					Inputs: resource.Object{"echo": tc.input}})
				return err
			})
			check := func(when string, outs resource.Object) {
				t.Helper()
				gotSecret := map[string]bool{}
				for path := range tc.want {
					gotSecret[path] = echoAt(outs, path).IsSecret()
				}
				if diff := cmp.Diff(tc.want, gotSecret); diff != "" {
					t.Errorf("%s: outputs secret as a whole (-want +got):\n%s\noutputs: %v", when, diff, outs)
				}
			}
			if _, err := h.preview(p); err != nil {
				t.Fatal(err)
			}
			check("the preview's outputs", got.Outputs)
			h.mustUp(p)
			check("the program's outputs", got.Outputs)
			check("the recorded outputs", h.get("e").Outputs)
			if !h.get("e").Inputs.Equal(resource.Object{"echo": tc.input}) {
				t.Errorf("the recorded inputs are %v, want %v", h.get("e").Inputs, tc.input)
			}
			noPlaintext(t, h, tc.plaintexts)

			if res, err := h.refresh(); err != nil || res.HasChanges() {
				t.Errorf("a refresh of a Read in the clear: %v, changes %v", err, res.Counts)
			}
			check("the outputs after a refresh", h.get("e").Outputs)
			if !h.get("e").Inputs.Equal(resource.Object{"echo": tc.input}) {
				t.Errorf("the inputs after a refresh are %v, want %v", h.get("e").Inputs, tc.input)
			}
			noPlaintext(t, h, tc.plaintexts)
			if res := h.mustUp(p); res.HasChanges() {
				t.Errorf("an unchanged up after the refresh changes %v", res.Counts)
			}
		})
	}
}

// echoAt returns the output at path: "echo", "echo.<key>" or "echo[<i>]".
func echoAt(outs resource.Object, path string) resource.Value {
	v := outs["echo"]
	if v.IsSecret() && path != "echo" {
		v = v.SecretElement()
	}
	switch {
	case strings.HasPrefix(path, "echo."):
		return v.Object()[strings.TrimPrefix(path, "echo.")]
	case strings.HasPrefix(path, "echo["):
		i := int(path[len("echo[")] - '0')
		return v.Array()[i]
	}
	return v
}

// noPlaintext fails if the stack's snapshot, encoded as the state stores
// it, holds any of plaintexts.
func noPlaintext(t *testing.T, h *harness, plaintexts []string) {
	t.Helper()
	c, err := secrets.NewCrypter(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	file, err := state.EncodeSnapshot(h.snap, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range plaintexts {
		if strings.Contains(string(file), s) {
			t.Errorf("the stored state holds %q in plain text: %s", s, file)
		}
	}
}

// TestCheckedConfigKeepsSecrets: a provider whose CheckConfig gives its
// configuration back in the clear (as one that does not accept secrets
// does) still has its secret configuration recorded sealed, as Pulumi's
// engine re-marks every checked configuration.
func TestCheckedConfigKeepsSecrets(t *testing.T) {
	h := newHarness(t)
	h.fake.CheckConfigF = func(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
		v, _ := resource.NewObject(req.News).Unsecret()
		return provider.CheckResponse{Inputs: v.Object()}, nil
	}
	p := prog{
		{name: "p", typ: "pulumi:providers:pkg", opt: func(r *engine.Registration) {
			r.Inputs["token"] = resource.MakeSecret(resource.NewString("tok-Hq93Lz"))
			r.Inputs["region"] = resource.NewString("north")
		}},
		{name: "a", provider: "p"},
	}
	h.mustUp(p)
	var rec *state.Resource
	for _, r := range h.snap.Resources {
		if r.URN.Name() == "p" {
			rec = r
		}
	}
	if rec == nil || !rec.Inputs["token"].IsSecret() || rec.Inputs["region"].IsSecret() {
		t.Fatalf("the provider's recorded configuration is %v, want token secret and region plain", rec)
	}
	noPlaintext(t, h, []string{"tok-Hq93Lz"})
	if res := h.mustUp(p); res.HasChanges() {
		t.Errorf("the next up changes %v", res.Counts)
	}
}
