package plinth_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestPet(t *testing.T) {
	h := newHarness(t, t.TempDir())
	pet := h.create(plinth.PetType, "p", map[string]any{"length": 3, "prefix": "my", "separator": "_", "keepers": map[string]any{"k": "1"}})
	name := pet.outputs["name"].Str()
	if pet.id != name {
		t.Errorf("ID %q is not the name %q", pet.id, name)
	}
	words := strings.Split(name, "_")
	if len(words) != 4 || words[0] != "my" {
		t.Errorf("name %q: want the prefix and three words", name)
	}

	same, d := h.up(pet, map[string]any{"length": 3, "prefix": "my", "separator": "_", "keepers": map[string]any{"k": "1"}})
	if d.Changes != provider.DiffNone || same.id != pet.id {
		t.Errorf("unchanged inputs: %+v", d)
	}
	renamed, d := h.up(pet, map[string]any{"length": 3, "prefix": "my", "separator": "_", "keepers": map[string]any{"k": "2"}})
	if !d.Replaces() || !cmp.Equal(d.ReplaceKeys, []string{"keepers"}) {
		t.Errorf("a keeper change must replace: %+v", d)
	}
	if renamed.outputs["name"].Str() == "" || renamed.id != renamed.outputs["name"].Str() {
		t.Errorf("replacement: %+v", renamed)
	}

	defaults := h.create(plinth.PetType, "d", map[string]any{})
	if n := strings.Split(defaults.id, "-"); len(n) != 2 {
		t.Errorf("default pet %q: want two words joined by -", defaults.id)
	}
	if got := h.preview(plinth.PetType, resource.Object{}); !got["name"].IsUnknown() {
		t.Errorf("preview name = %v, want unknown", got["name"])
	}
	want := []provider.CheckFailure{{Property: "length", Reason: "must be at least 1"}}
	if d := cmp.Diff(want, h.failures(plinth.PetType, map[string]any{"length": 0})); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
}

func TestString(t *testing.T) {
	h := newHarness(t, "")
	s := h.create(plinth.StringType, "s", map[string]any{"length": 40, "special": false, "upper": false})
	r := s.outputs["result"].Str()
	if len(r) != 40 || s.id != r {
		t.Errorf("result %q (ID %q): want 40 characters and the ID", r, s.id)
	}
	if strings.IndexFunc(r, func(c rune) bool { return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789", c) }) >= 0 {
		t.Errorf("result %q has characters of a class that is off", r)
	}
	_, d := h.up(s, map[string]any{"length": 41, "special": false, "upper": false})
	if !d.Replaces() {
		t.Errorf("a new length must replace: %+v", d)
	}
	if got := h.preview(plinth.StringType, resource.ObjectFromGo(map[string]any{"length": 3})); !got["result"].IsUnknown() {
		t.Errorf("preview result = %v", got["result"])
	}
	want := []provider.CheckFailure{{Reason: "upper, lower, numeric and special are all false: enable at least one character class"}}
	got := h.failures(plinth.StringType, map[string]any{"length": 3, "upper": false, "lower": false, "numeric": false, "special": false})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
}

func TestIntegerSeedIsDeterministic(t *testing.T) {
	h := newHarness(t, "")
	args := map[string]any{"min": 1, "max": 1000000, "seed": "plinth"}
	a := h.create(plinth.IntegerType, "a", args)
	b := h.create(plinth.IntegerType, "b", args)
	if a.outputs["result"].Number() != b.outputs["result"].Number() {
		t.Errorf("same seed, different results: %v and %v", a.outputs["result"], b.outputs["result"])
	}
	if a.id != strconv.FormatFloat(a.outputs["result"].Number(), 'f', -1, 64) {
		t.Errorf("ID %q is not the result %v", a.id, a.outputs["result"])
	}
	_, d := h.up(a, map[string]any{"min": 1, "max": 1000000, "seed": "plinth", "keepers": map[string]any{"v": 2}})
	if !cmp.Equal(d.ReplaceKeys, []string{"keepers"}) {
		t.Errorf("a new keeper must replace: %+v", d)
	}
}

func TestIntegerStaysInRange(t *testing.T) {
	h := newHarness(t, "")
	seen := map[float64]bool{}
	for i := 0; i < 200; i++ {
		r := h.create(plinth.IntegerType, "r", map[string]any{"min": -2, "max": 2}).outputs["result"].Number()
		if r < -2 || r > 2 {
			t.Fatalf("result %v outside [-2, 2]", r)
		}
		seen[r] = true
	}
	if len(seen) < 3 {
		t.Errorf("200 draws from [-2, 2] gave only %v", seen)
	}
	lo, _ := resource.ParseNumber(strconv.FormatInt(math.MinInt64, 10))
	hi, _ := resource.ParseNumber(strconv.FormatInt(math.MaxInt64, 10))
	full := h.create(plinth.IntegerType, "full", map[string]any{"min": lo, "max": hi, "seed": "x"})
	if !full.outputs["result"].BigNumber().IsInt() {
		t.Errorf("full-range result %v", full.outputs["result"])
	}
	want := []provider.CheckFailure{{Property: "max", Reason: "must not be less than min (5)"}}
	if d := cmp.Diff(want, h.failures(plinth.IntegerType, map[string]any{"min": 5, "max": 4})); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
	if got := h.preview(plinth.IntegerType, resource.ObjectFromGo(map[string]any{"min": 1, "max": 2})); !got["result"].IsUnknown() {
		t.Errorf("preview result = %v", got["result"])
	}
}

func TestSchema(t *testing.T) {
	h := newHarness(t, "")
	resp, err := h.p.GetSchema(h.ctx, provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s := resp.Schema
	wantTypes := []string{plinth.CommandType, plinth.FileType, plinth.PetType, plinth.IntegerType, plinth.StringType, plinth.SleepType}
	slices.Sort(wantTypes)
	if d := cmp.Diff(wantTypes, s.ResourceTypes()); d != "" {
		t.Errorf("resource types (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{plinth.GetEnvToken, plinth.ReadFileToken}, s.FunctionTokens()); d != "" {
		t.Errorf("functions (-want +got):\n%s", d)
	}
	file := s.Resources[plinth.FileType]
	if p := file.Inputs["path"]; !p.Required || !p.ReplaceOnChanges || p.Type.Kind != provider.TypeString {
		t.Errorf("fs:File path = %+v", p)
	}
	if p := file.Inputs["source"]; p.Required || p.Type.Kind != provider.TypeAsset {
		t.Errorf("fs:File source = %+v", p)
	}
	if p := file.Outputs["sha256"]; !p.Required || !p.Computed {
		t.Errorf("fs:File sha256 = %+v", p)
	}
	if p := s.Resources[plinth.PetType].Inputs["keepers"]; p.Type.String() != "map<any>" || !p.ReplaceOnChanges {
		t.Errorf("random:Pet keepers = %+v", p)
	}
	if p := s.Config["root"]; p.Type.Kind != provider.TypeString || p.Required || p.Description == "" {
		t.Errorf("config root = %+v", p)
	}
	info, _ := h.p.GetPluginInfo(h.ctx, provider.GetPluginInfoRequest{})
	if info.Name != plinth.Name || info.Version != plinth.Version || s.Name != "plinth" {
		t.Errorf("info %+v, schema name %q", info, s.Name)
	}
}
