package yaml

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// unknownID is how the fake writes an unknown provider ID in a reference.
const unknownID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

// fakeMonitor records registrations and resolves them: the ID is NAME-id
// (unknown in a preview, unless imported), the outputs are the inputs plus
// any extras configured per name (unknown in a preview).
type fakeMonitor struct {
	preview bool
	// extras are outputs a resource reports beyond its inputs, by name.
	extras map[string]resource.Object
	// fail makes the registration of these names fail.
	fail map[string]error
	// hold keeps each registration pending until release is called.
	hold bool
	// registered, if set, receives each registered name.
	registered chan string
	invokeF    func(engine.InvokeRequest) (resource.Object, error)
	schemas    map[string]*schema.Schema
	schemaErr  map[string]error

	mu               sync.Mutex
	regs             []engine.Registration
	held             map[string]func()
	invokes          []engine.InvokeRequest
	schemaCalls      []string
	stackOutputs     resource.Object
	setOutputsCalls  int
	componentOutputs map[resource.URN]resource.Object
}

var _ engine.Monitor = (*fakeMonitor)(nil)

func (m *fakeMonitor) URN(typ, name string, parent resource.URN) resource.URN {
	parentType := ""
	if parent != "" {
		parentType = parent.QualifiedType()
	}
	return resource.NewURN("dev", "test", parentType, typ, name)
}

func (m *fakeMonitor) Register(reg engine.Registration, done func(engine.Registered, error)) {
	m.mu.Lock()
	m.regs = append(m.regs, reg)
	res, err := m.resolve(reg)
	finish := func() { done(res, err) }
	if m.hold {
		if m.held == nil {
			m.held = map[string]func(){}
		}
		m.held[reg.Name] = finish
	}
	m.mu.Unlock()
	if m.registered != nil {
		m.registered <- reg.Name
	}
	if !m.hold {
		finish()
	}
}

func (m *fakeMonitor) resolve(reg engine.Registration) (engine.Registered, error) {
	if err := m.fail[reg.Name]; err != nil {
		return engine.Registered{}, err
	}
	urn := m.URN(reg.Type, reg.Name, reg.Parent)
	res := engine.Registered{URN: urn, Custom: reg.Custom, Outputs: reg.Inputs.Copy()}
	if res.Outputs == nil {
		res.Outputs = resource.Object{}
	}
	if reg.Custom {
		res.ID = resource.NewString(reg.Name + "-id")
		if m.preview && reg.ImportID == "" {
			res.ID = resource.Unknown()
		}
		if reg.ReadID != "" {
			res.ID = resource.NewString(reg.ReadID)
			if reg.ReadID == unknownID {
				res.ID = resource.Unknown()
			}
		}
	}
	for k, v := range m.extras[reg.Name] {
		if m.preview {
			v = resource.Unknown()
		}
		res.Outputs[k] = v
	}
	if strings.HasPrefix(reg.Type, "pulumi:providers:") {
		id := reg.Name + "-id"
		if m.preview {
			id = unknownID
		}
		res.ProviderRef = string(urn) + "::" + id
	}
	return res, nil
}

// release completes a held registration.
func (m *fakeMonitor) release(name string) {
	m.mu.Lock()
	f := m.held[name]
	delete(m.held, name)
	m.mu.Unlock()
	if f == nil {
		panic("fake: nothing held for " + name)
	}
	f()
}

func (m *fakeMonitor) RegisterOutputs(urn resource.URN, outputs resource.Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.componentOutputs == nil {
		m.componentOutputs = map[resource.URN]resource.Object{}
	}
	m.componentOutputs[urn] = outputs
	return nil
}

// Recorded implements engine.Monitor: the fake state is empty.
func (m *fakeMonitor) Recorded(resource.URN) bool { return false }

func (m *fakeMonitor) SetStackOutputs(outputs resource.Object) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stackOutputs = outputs
	m.setOutputsCalls++
}

func (m *fakeMonitor) Invoke(_ context.Context, req engine.InvokeRequest) (resource.Object, error) {
	m.mu.Lock()
	m.invokes = append(m.invokes, req)
	m.mu.Unlock()
	if m.invokeF == nil {
		return nil, fmt.Errorf("no function %s", req.Token)
	}
	return m.invokeF(req)
}

func (m *fakeMonitor) Schema(_ context.Context, pkg, version string) (*schema.Schema, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.schemaCalls = append(m.schemaCalls, pkg+"@"+version)
	if err := m.schemaErr[pkg]; err != nil {
		return nil, err
	}
	return m.schemas[pkg], nil
}

// byName returns the registration of a name.
func (m *fakeMonitor) byName(name string) (engine.Registration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.regs {
		if r.Name == name {
			return r, true
		}
	}
	return engine.Registration{}, false
}

func (m *fakeMonitor) names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, r := range m.regs {
		out = append(out, r.Name)
	}
	return out
}

// dump renders every registration, the invokes and the stack outputs, in
// a stable order, for golden files.
func (m *fakeMonitor) dump() string {
	m.mu.Lock()
	regs := append([]engine.Registration(nil), m.regs...)
	m.mu.Unlock()
	sort.Slice(regs, func(i, j int) bool { return regs[i].Type+regs[i].Name < regs[j].Type+regs[j].Name })
	var b strings.Builder
	for _, r := range regs {
		dumpRegistration(&b, r)
	}
	var invokes []string
	for _, inv := range m.invokes {
		invokes = append(invokes, fmt.Sprintf("invoke %s %s provider=%q version=%q\n", inv.Token, render(resource.NewObject(inv.Args)), inv.Provider, inv.Version))
	}
	sort.Strings(invokes)
	b.WriteString(strings.Join(invokes, ""))
	if m.setOutputsCalls > 0 {
		fmt.Fprintf(&b, "outputs %s\n", render(resource.NewObject(m.stackOutputs)))
	}
	return b.String()
}

func dumpRegistration(b *strings.Builder, r engine.Registration) {
	fmt.Fprintf(b, "%s %s\n", r.Type, r.Name)
	line := func(k string, v any) { fmt.Fprintf(b, "  %s: %v\n", k, v) }
	if !r.Custom {
		line("component", true)
	}
	line("inputs", render(resource.NewObject(r.Inputs)))
	opt := func(ok bool, k string, v any) {
		if ok {
			line(k, v)
		}
	}
	opt(len(r.Dependencies) > 0, "dependencies", r.Dependencies)
	for _, k := range sortedStrings(r.PropertyDependencies) {
		line("propertyDependencies."+k, r.PropertyDependencies[k])
	}
	opt(r.Parent != "", "parent", r.Parent)
	opt(r.Provider != "", "provider", r.Provider)
	opt(r.Version != "", "version", r.Version)
	opt(r.PluginSource != "", "pluginSource", r.PluginSource)
	opt(r.Protect, "protect", r.Protect)
	opt(r.RetainOnDelete, "retainOnDelete", r.RetainOnDelete)
	opt(r.DeleteBeforeReplace, "deleteBeforeReplace", r.DeleteBeforeReplace)
	opt(len(r.IgnoreChanges) > 0, "ignoreChanges", r.IgnoreChanges)
	opt(len(r.ReplaceOnChanges) > 0, "replaceOnChanges", r.ReplaceOnChanges)
	opt(r.CustomTimeouts != engine.CustomTimeouts{}, "customTimeouts", r.CustomTimeouts)
	opt(r.ImportID != "", "importID", r.ImportID)
	opt(r.ReadID != "", "readID", r.ReadID)
}

func sortedStrings[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// render is Value.String that shows what secrets hold, as secret(...).
func render(v resource.Value) string {
	switch v.Kind() {
	case resource.SecretKind:
		return "secret(" + render(v.SecretElement()) + ")"
	case resource.ArrayKind:
		parts := make([]string, len(v.Array()))
		for i, e := range v.Array() {
			parts[i] = render(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case resource.ObjectKind:
		parts := make([]string, 0, len(v.Object()))
		for _, k := range v.Object().Keys() {
			parts = append(parts, fmt.Sprintf("%q: %s", k, render(v.Object()[k])))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.String()
}
