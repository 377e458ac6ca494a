package tfstate

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin/tfprivate"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Target says where adopted resources go: their URNs' stack and project.
type Target struct {
	Stack, Project string
	// Now stamps Created and Modified; zero means time.Now.
	Now time.Time
}

// noID is the ID of an object without an id attribute, as the Terraform
// adapter records it.
const noID = "none"

// adopter builds a snapshot from a parsed state.
type adopter struct {
	t         Target
	snap      *state.Snapshot
	providers map[string]string         // provider address -> provider reference
	byAddr    map[string][]resource.URN // resource address -> its instances' URNs
	groups    map[string]resource.URN   // address of a counted resource -> its group URN
	notes     []string
}

// ToSnapshot maps a parsed Terraform state to a snapshot for the target
// stack. It returns notes for people about what was left out (data
// sources, dependencies on resources the state does not hold).
func ToSnapshot(st *State, t Target) (*state.Snapshot, []string, error) {
	if t.Now.IsZero() {
		t.Now = time.Now()
	}
	a := &adopter{t: t, snap: &state.Snapshot{}, providers: map[string]string{}, byAddr: map[string][]resource.URN{}}
	type pending struct {
		r   *Resource
		in  *Instance
		res *state.Resource
	}
	var made []pending
	for _, r := range st.Resources {
		if r.Mode == "data" {
			a.notes = append(a.notes, fmt.Sprintf("data source %s is not adopted: it is read again on the next run", must(r.address())))
			continue
		}
		for _, in := range r.Instances {
			res, err := a.instance(r, in)
			if err != nil {
				return nil, nil, err
			}
			made = append(made, pending{r, in, res})
		}
	}
	a.groupAddrs()
	for _, m := range made {
		m.res.Dependencies, m.res.DependencyGroups = a.dependencies(m.r, m.in)
	}
	outs, err := outputs(st.Outputs)
	if err != nil {
		return nil, nil, err
	}
	a.snap.Outputs, a.snap.OutputTypes = outs, outputTypes(st.Outputs)
	a.snap.Resources = state.SortByDependency(a.snap.Resources)
	if err := a.snap.Verify(); err != nil {
		return nil, nil, fmt.Errorf("the adopted state fails plinth's integrity check: %w", err)
	}
	return a.snap, a.notes, nil
}

func must(s string, _ error) string { return s }

// instance maps one instance to a resource and adds it to the snapshot.
func (a *adopter) instance(r *Resource, in *Instance) (*state.Resource, error) {
	base := must(r.address())
	key, _ := instanceKey(in.IndexKey)
	addr := base + key
	what := "resource instance " + addr
	if in.Deposed != "" {
		what += " (deposed object " + in.Deposed + ")"
	}
	outputs, err := attributes(r.Type, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	priv, err := base64.StdEncoding.DecodeString(in.Private)
	if err != nil {
		return nil, fmt.Errorf("%s: its private data is not base64: %v", what, err)
	}
	ref, err := a.provider(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	urn := resource.NewURN(a.t.Stack, a.t.Project, "", typeToken(r.Type), addr)
	if _, err := resource.ParseURN(string(urn)); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	res := &state.Resource{
		URN: urn, Type: typeToken(r.Type), Custom: true, ID: idOf(outputs),
		Inputs: inputsOf(outputs), Outputs: outputs, Provider: ref,
		DeleteBeforeReplace: !in.CreateBeforeDestroy, Tainted: in.Status == "tainted",
		Delete: in.Deposed != "", Private: tfprivate.Encode(in.SchemaVersion, priv),
		InputTypes: adoptedInputTypes(r.Type, in.Attributes),
		Created:    a.t.Now, Modified: a.t.Now,
	}
	a.snap.Resources = append(a.snap.Resources, res)
	if !res.Delete {
		a.byAddr[base] = append(a.byAddr[base], urn)
	}
	return res, nil
}

// attributes decodes an instance's attributes with its sensitive paths
// made secret, and checks them against the size plinth keeps per resource.
func attributes(typ string, in *Instance) (resource.Object, error) {
	if len(in.Attributes) > provider.MaxStateBytes {
		return nil, fmt.Errorf("its attributes are %.1f MiB of JSON, over the %d MiB plinth keeps for one resource",
			float64(len(in.Attributes))/(1<<20), provider.MaxStateBytes>>20)
	}
	if len(in.Attributes) == 0 || string(in.Attributes) == "null" {
		return nil, fmt.Errorf("it has no attributes")
	}
	v, err := decodeJSON(in.Attributes)
	if err != nil {
		return nil, fmt.Errorf("its attributes are not valid: %v", err)
	}
	if v.Kind() != resource.ObjectKind {
		return nil, fmt.Errorf("its attributes are a JSON %s, not an object", v.Kind())
	}
	v = resource.NewObject(unwrapDynamic(typ, v.Object()))
	if id, ok := v.Object()["id"]; ok && !id.IsNull() && id.Kind() != resource.StringKind {
		return nil, fmt.Errorf("its id attribute is a %s; Terraform ids are strings", id.Kind())
	}
	paths, err := parsePaths(in.SensitiveAttributes)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		v = markSecret(v, p)
	}
	return v.Object(), nil
}

// idOf is the resource ID: the id attribute, or "none".
func idOf(o resource.Object) string {
	if id := o["id"].SecretElement(); id.Kind() == resource.StringKind && id.Str() != "" {
		return id.Str()
	}
	return noID
}

// inputsOf is what a program could have set, as far as the state tells:
// every attribute but the id and the nulls. The first update replaces it
// with the program's inputs.
func inputsOf(o resource.Object) resource.Object {
	in := resource.Object{}
	for k, v := range o {
		if k != "id" && !v.SecretElement().IsNull() {
			in[k] = v
		}
	}
	return in
}

// typeToken is the type token plinth gives a Terraform type.
func typeToken(t string) string {
	pkg, _, _ := strings.Cut(t, "_")
	return pkg + ":index:" + t
}

// provider returns the reference to the provider resource of r's provider
// configuration, adding the resource on first use.
func (a *adopter) provider(r *Resource) (string, error) {
	if ref, ok := a.providers[r.Provider]; ok {
		return ref, nil
	}
	p, err := parseProvider(r.Provider)
	if err != nil {
		return "", err
	}
	urn := resource.NewURN(a.t.Stack, a.t.Project, "", state.ProviderTypePrefix+p.Type(), p.urnName())
	if ref, ok := a.providers[string(urn)]; ok { // the same configuration written another way
		a.providers[r.Provider] = ref
		return ref, nil
	}
	res := &state.Resource{
		URN: urn, Type: state.ProviderTypePrefix + p.Type(), Custom: true, ID: newID(),
		Inputs:  resource.Object{"source": resource.NewString(p.pluginSource())},
		Outputs: resource.Object{}, Created: a.t.Now, Modified: a.t.Now,
	}
	a.snap.Resources = append(a.snap.Resources, res)
	ref := state.ProviderRef(urn, res.ID)
	a.providers[r.Provider], a.providers[string(urn)] = ref, ref
	return ref, nil
}

// dependencies maps an instance's dependencies to the URNs of every
// instance of each resource named; data sources and resources the state
// does not hold are left out.
//
// A resource of several instances, all of one group (count or for_each),
// is named by its group URN in groups instead: a resource-level
// dependency, as Terraform records it, without n×n instance references.
func (a *adopter) dependencies(r *Resource, in *Instance) (out, groups []resource.URN) {
	deps := append(append([]string(nil), in.Dependencies...), in.DependsOn...)
	seen := map[resource.URN]bool{}
	for _, d := range deps {
		if g, ok := a.groups[d]; ok {
			if !seen[g] {
				seen[g] = true
				groups = append(groups, g)
			}
			continue
		}
		urns, ok := a.byAddr[d]
		if !ok {
			if !isDataAddr(d) {
				a.notes = append(a.notes, fmt.Sprintf("%s depends on %s, which the state does not hold; the dependency is dropped", must(r.address()), d))
			}
			continue
		}
		for _, u := range urns {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	slices.Sort(out)
	slices.Sort(groups)
	return out, groups
}

// groupAddrs finds the resources whose instances all have instance keys
// of one group, which dependencies then name by their group URN.
func (a *adopter) groupAddrs() {
	a.groups = map[string]resource.URN{}
	for addr, urns := range a.byAddr {
		g, ok := state.GroupOf(urns[0])
		for _, u := range urns[1:] {
			h, hok := state.GroupOf(u)
			ok = ok && hok && h == g
		}
		if ok {
			a.groups[addr] = g
		}
	}
}

func isDataAddr(a string) bool {
	return strings.HasPrefix(a, "data.") || strings.Contains(a, ".data.")
}

// outputs maps root outputs to stack outputs; sensitive ones are secrets.
func outputs(outs map[string]*Output) (resource.Object, error) {
	if len(outs) == 0 {
		return nil, nil
	}
	o := resource.Object{}
	for name, out := range outs {
		v, err := decodeJSON(out.Value)
		if err != nil {
			return nil, fmt.Errorf("output %q: its value is not valid: %v", name, err)
		}
		if out.Sensitive {
			v = resource.MakeSecret(v)
		}
		o[name] = v
	}
	return o, nil
}

// outputTypes are the types a state records for its outputs, kept so
// that an export writes each as terraform recorded it (nil if none).
func outputTypes(outs map[string]*Output) map[string]json.RawMessage {
	var types map[string]json.RawMessage
	for name, out := range outs {
		if len(out.Type) == 0 {
			continue
		}
		if types == nil {
			types = map[string]json.RawMessage{}
		}
		types[name] = out.Type
	}
	return types
}

// newID makes a provider resource ID as the engine does.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
