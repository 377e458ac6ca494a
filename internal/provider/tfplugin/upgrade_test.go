package tfplugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// upgradeRig creates a fake_thing with one run of the fake provider and
// loads it back (Diff, Read, Diff of what Read returned, Delete) with a
// second run, counting the second run's UpgradeResourceState calls.
type upgradeRig struct {
	*cacheRig
	upgrades string // the second run's call log
}

// startRun starts the rig's binary in mode, with the schema cache unless
// cache is false, and configures it.
func (r *upgradeRig) startRun(t *testing.T, mode string, cache bool, env ...string) *Provider {
	t.Helper()
	cfg := Config{Path: r.bin, Dir: t.TempDir(), Env: append([]string{fakeModeEnv + "=" + mode}, env...)}
	if cache {
		cfg.SchemaCache = r.cache
	}
	p, err := Start(context.Background(), cfg)
	mustOK(t, "Start", err)
	t.Cleanup(func() { p.Close() })
	_, err = p.Configure(context.Background(), provider.ConfigureRequest{})
	mustOK(t, "Configure", err)
	return p
}

func (r *upgradeRig) calls(t *testing.T) int {
	b, err := os.ReadFile(r.upgrades)
	if os.IsNotExist(err) {
		return 0
	}
	mustOK(t, "reading the upgrade log", err)
	return strings.Count(string(b), "\n")
}

// withoutProducer rewrites a Private as plinth wrote it before producers
// were recorded (and as the terraform.tfstate converter writes it).
func withoutProducer(t *testing.T, priv []byte) []byte {
	d, err := tfprivate.Decode(priv)
	mustOK(t, "decoding Private", err)
	return tfprivate.Encode(d.SchemaVersion, d.Provider)
}

// TestUpgradeSkipped: a state this very binary wrote, at the schema
// version it still has, is loaded without UpgradeResourceState; every
// other state is upgraded by the provider, as Terraform always does.
func TestUpgradeSkipped(t *testing.T) {
	tests := map[string]struct {
		firstMode, secondMode string
		noCache               bool                        // no schema cache: the binary's checksum is unknown
		between               func(*testing.T, *cacheRig) // after the create, before the loads
		rewrite               func(*testing.T, []byte) []byte
		wantUpgrades          int
	}{
		"same binary, same schema version": {firstMode: modePlain, secondMode: modePlain, wantUpgrades: 0},
		"schema version changed":           {firstMode: modePlain, secondMode: modeUpgrade, wantUpgrades: 4},
		"binary rebuilt":                   {firstMode: modePlain, secondMode: modePlain, between: changeBinary, wantUpgrades: 4},
		"checksum unknown":                 {firstMode: modePlain, secondMode: modePlain, noCache: true, wantUpgrades: 4},
		"recorded without a producer":      {firstMode: modePlain, secondMode: modePlain, rewrite: withoutProducer, wantUpgrades: 4},
		"legacy SDK type system":           {firstMode: modeLegacy, secondMode: modeLegacy, wantUpgrades: 4},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &upgradeRig{cacheRig: newCacheRig(t)}
			r.upgrades = filepath.Join(t.TempDir(), "upgrades")
			ctx := context.Background()
			u, inputs := urn("fake_thing", "t"), obj(map[string]any{"value": "v"})
			first := r.startRun(t, tc.firstMode, !tc.noCache)
			created, err := first.Create(ctx, provider.CreateRequest{URN: u, Inputs: inputs})
			mustOK(t, "Create", err)
			first.Close()
			if tc.between != nil {
				tc.between(t, r.cacheRig)
			}
			if tc.rewrite != nil {
				created.Private = tc.rewrite(t, created.Private)
			}
			p := r.startRun(t, tc.secondMode, !tc.noCache, fakeUpgradeLogEnv+"="+r.upgrades)
			var changes []provider.DiffChanges
			diff := func(id string, outputs resource.Object, priv []byte) {
				d, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: id, OldInputs: inputs, OldOutputs: outputs, News: inputs, Private: priv})
				mustOK(t, "Diff", err)
				changes = append(changes, d.Changes)
			}
			diff(created.ID, created.Outputs, created.Private)
			read, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: created.ID, Inputs: inputs, State: created.Outputs, Private: created.Private})
			mustOK(t, "Read", err)
			if diff := cmp.Diff(created.Outputs, read.Outputs); diff != "" {
				t.Errorf("Read changed the outputs (-created +read):\n%s", diff)
			}
			diff(read.ID, read.Outputs, read.Private)
			_, err = p.Delete(ctx, provider.DeleteRequest{URN: u, ID: created.ID, Inputs: inputs, Outputs: created.Outputs, Private: created.Private})
			mustOK(t, "Delete", err)
			if diff := cmp.Diff([]provider.DiffChanges{provider.DiffNone, provider.DiffNone}, changes); diff != "" {
				t.Errorf("Diff of an unchanged resource (-want +got):\n%s", diff)
			}
			if got := r.calls(t); got != tc.wantUpgrades {
				t.Errorf("UpgradeResourceState was called %d times, want %d", got, tc.wantUpgrades)
			}
		})
	}
}

// TestRealUpgradeIsIdentity checks the premise of skipping
// UpgradeResourceState on real providers built on
// terraform-plugin-framework: for states the provider itself wrote, at
// its current schema version, its upgrade returns exactly what the
// adapter decodes on its own (strings, numbers beyond a double, lists,
// maps, sensitive attributes).
func TestRealUpgradeIsIdentity(t *testing.T) {
	tests := map[string]struct {
		provider, tfType string
		inputs           map[string]any
	}{
		"pet with keepers": {"random", "random_pet", map[string]any{"length": 3, "keepers": map[string]any{"k": "v"}}},
		"password":         {"random", "random_password", map[string]any{"length": 20, "special": false}},
		"string":           {"random", "random_string", map[string]any{"length": 8, "override_special": "-_"}},
		"large integer":    {"random", "random_integer", map[string]any{"min": 9007199254740993, "max": 9007199254740999}},
		"shuffle":          {"random", "random_shuffle", map[string]any{"input": []any{"a", "b", "c"}, "result_count": 2}},
		"id":               {"random", "random_id", map[string]any{"byte_length": 8}},
		"time offset":      {"time", "time_offset", map[string]any{"offset_days": 2, "triggers": map[string]any{"a": "b"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := startReal(t, tc.provider, "", nil)
			l := lifecycle{t: t, p: p, urn: urn(tc.tfType, "r")}
			cr := l.create(obj(tc.inputs))
			target, err := p.resourceTarget(l.urn, "Test")
			mustOK(t, "resourceTarget", err)
			local, err := toCty(resource.NewObject(cr.Outputs), target.ty, nil)
			mustOK(t, "decoding the outputs", err)
			upgraded, pd, err := p.loadState(context.Background(), target, cr.ID, cr.Outputs, cr.Private)
			mustOK(t, "UpgradeResourceState", err)
			if pd.current {
				t.Fatal("the provider has no producer (no schema cache), yet the state was not upgraded")
			}
			if !upgraded.RawEquals(local) {
				t.Errorf("UpgradeResourceState at the same version is not an identity:\nupgraded %#v\nlocal    %#v", upgraded, local)
			}
		})
	}
}
