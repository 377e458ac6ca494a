package tfstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var target = Target{Stack: "dev", Project: "proj", Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func adopt(t *testing.T, data []byte) (*state.Snapshot, []string) {
	t.Helper()
	st, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	snap, notes, err := ToSnapshot(st, target)
	if err != nil {
		t.Fatal(err)
	}
	return snap, notes
}

func urn(typ, name string) resource.URN { return resource.NewURN("dev", "proj", "", typ, name) }

// TestAdoptComplex checks each part of the mapping on a state with
// modules, count, for_each, aliases, module providers, a tainted and a
// deposed instance, private bytes, sensitive paths and a data source.
func TestAdoptComplex(t *testing.T) {
	snap, notes := adopt(t, read(t, "complex.tfstate"))
	byURN := map[string]*state.Resource{}
	for _, r := range snap.Resources {
		k := string(r.URN)
		if r.Delete {
			k += " deposed"
		}
		byURN[k] = r
	}
	var names []string
	for _, r := range snap.Resources {
		names = append(names, r.URN.Name())
	}
	want := []string{"provider.random.west", "random_password.pw", "default", "random_pet.p[0]", "random_pet.p[1]",
		"default", `time_static.t["x"]`, "module.site.provider.local", `module.site["alpha"].local_file.page`,
		`module.site["alpha"].local_file.page`, `module.site["beta"].local_file.page`}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	pw := byURN[string(urn("random:index:random_password", "random_password.pw"))]
	if pw == nil {
		t.Fatalf("no random_password.pw among %v", names)
	}
	if !pw.Outputs["result"].IsSecret() || pw.Outputs["length"].IsSecret() {
		t.Errorf("result should be secret and length not: %v", pw.Outputs)
	}
	if got := pw.Outputs["big"].NumberLiteral(); got != "12345678901234567890123" {
		t.Errorf("big = %s, want every digit", got)
	}
	pd, err := tfprivate.Decode(pw.Private)
	if err != nil || pd.SchemaVersion != 3 || string(pd.Provider) != `{"schema_version":"3"}` {
		t.Errorf("private = %+v, %v", pd, err)
	}
	if pw.DeleteBeforeReplace || !strings.Contains(pw.Provider, "provider.random.west") {
		t.Errorf("create_before_destroy or provider lost: %+v", pw)
	}
	p1 := byURN[string(urn("random:index:random_pet", "random_pet.p[1]"))]
	if p1 == nil || !p1.Tainted || p1.ID != "b" || !p1.DeleteBeforeReplace {
		t.Errorf("random_pet.p[1] = %+v, want tainted with ID b", p1)
	}
	alpha := urn("local:index:local_file", `module.site["alpha"].local_file.page`)
	cur, dep := byURN[string(alpha)], byURN[string(alpha)+" deposed"]
	if cur == nil || dep == nil || cur.ID != "f1" || dep.ID != "f0" {
		t.Fatalf("alpha page: current %+v, deposed %+v", cur, dep)
	}
	wantDeps := []resource.URN{urn("random:index:random_password", "random_password.pw"),
		urn("random:index:random_pet", "random_pet.p[0]"), urn("random:index:random_pet", "random_pet.p[1]")}
	if diff := cmp.Diff(wantDeps, state.ExpandGroups(cur, snap.Resources)); diff != "" {
		t.Errorf("dependencies (-want +got):\n%s", diff)
	}
	wantGroups := []resource.URN{urn("random:index:random_pet", "random_pet.p")}
	if diff := cmp.Diff(wantGroups, cur.DependencyGroups); diff != "" {
		t.Errorf("dependency groups (-want +got):\n%s", diff)
	}
	if s := cur.Outputs["list"].Array()[0].Object()["s"]; !s.IsSecret() {
		t.Errorf("list[0].s should be secret")
	}
	if !cur.Outputs["sensitive_content"].IsSecret() {
		t.Errorf("a sensitive null stays marked, so export writes its path back")
	}
	if _, ok := cur.Inputs["id"]; ok {
		t.Errorf("inputs hold the id: %v", cur.Inputs)
	}
	if !snap.Outputs["pw"].IsSecret() || snap.Outputs["names"].Array()[1].Str() != "b" {
		t.Errorf("outputs = %v", snap.Outputs)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "data source data.local_file.in") {
		t.Errorf("notes = %q, want one about the data source", notes)
	}
}

// TestRoundTrip: a state adopted and exported again equals the input,
// once deposed keys (plinth does not keep them) are set aside.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"simple.tfstate", "complex.tfstate"} {
		t.Run(name, func(t *testing.T) {
			in := read(t, name)
			st, err := Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			snap, _, err := ToSnapshot(st, target)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := FromSnapshot(snap, ExportOptions{Lineage: st.Lineage, Serial: st.Serial, TerraformVersion: st.TerraformVersion})
			if err != nil {
				t.Fatal(err)
			}
			out, err := Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normalise(t, in, true), normalise(t, out, false)); diff != "" {
				t.Errorf("round trip (-in +out):\n%s", diff)
			}
		})
	}
}

var deposedRE = regexp.MustCompile(`"deposed": *"[0-9a-f]+"`)

// normalise parses a state for comparison: deposed keys blanked, data
// sources dropped from the input (they are not adopted), empty lists and
// absent ones equal. Output types are compared: adoption keeps them.
func normalise(t *testing.T, data []byte, input bool) any {
	t.Helper()
	data = deposedRE.ReplaceAll(data, []byte(`"deposed":"K"`))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, r := range doc["resources"].([]any) {
		rm := r.(map[string]any)
		if rm["mode"] == "data" {
			continue
		}
		for _, in := range rm["instances"].([]any) {
			im := in.(map[string]any)
			if paths, ok := im["sensitive_attributes"].([]any); ok {
				sort.Slice(paths, func(i, j int) bool { return fmt.Sprint(paths[i]) < fmt.Sprint(paths[j]) })
			}
			if deps, ok := im["dependencies"].([]any); ok && len(deps) == 0 {
				delete(im, "dependencies")
			}
			if _, ok := im["create_before_destroy"]; !ok {
				im["create_before_destroy"] = false
			}
		}
		kept = append(kept, rm)
	}
	doc["resources"] = kept
	return doc
}

// TestAdoptCountedDepsCompact: a resource-level dependency between two
// counted resources is recorded once per instance (a dependency group),
// not as n×n instance references, and still orders and exports as one.
func TestAdoptCountedDepsCompact(t *testing.T) {
	st, err := Parse(countedDepsState(50))
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := ToSnapshot(st, target)
	if err != nil {
		t.Fatal(err)
	}
	refs := 0
	for _, r := range snap.Resources {
		refs += len(r.Dependencies) + len(r.DependencyGroups)
	}
	if refs != 50 {
		t.Errorf("%d dependency entries recorded, want 50 (one group per instance of b)", refs)
	}
	last := snap.Resources[len(snap.Resources)-1]
	if want := urn("random:index:random_pet", "random_pet.b[49]"); last.URN != want {
		t.Errorf("last resource %s, want %s after every instance of a", last.URN, want)
	}
}
