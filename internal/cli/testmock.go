package cli

import (
	"context"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program/hcl"
	"github.com/plinth-iac/plinth/internal/program/hcl/tftest"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// mockSource is the provider source of a test run with mocks: a mocked
// provider (mock_provider) fakes every resource and data source, and any
// provider fakes the resources a run overrides (override_resource). The
// real provider is still started, for its schema: it tells which
// attributes are computed, which the fakes fill in.
type mockSource struct {
	engine.ProviderSource
	mocks tftest.Mocks
}

var _ engine.ProviderSource = mockSource{}

// NewProvider wraps the provider asked for when the run mocks anything.
func (s mockSource) NewProvider(ctx context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	p, err := s.ProviderSource.NewProvider(ctx, req)
	if err != nil || s.mocks.Empty() {
		return p, err
	}
	return &mockProvider{Provider: p, pkg: req.Package, mocks: s.mocks.Providers, overrides: s.mocks.Resources}, nil
}

// mockProvider fakes the mocked resources of a provider and passes the
// rest through.
type mockProvider struct {
	provider.Provider
	pkg       string
	mocks     map[string]tftest.MockProvider // by NAME or NAME.ALIAS
	overrides map[string]tftest.Override     // by address, with or without instance keys

	// all and mock are chosen by CheckConfig, which names the provider
	// configuration: all is set when a mock_provider mocks it (every
	// resource faked, the provider never configured).
	all  bool
	mock tftest.MockProvider

	once   sync.Once
	schema *schema.Schema
}

var _ provider.Provider = (*mockProvider)(nil)

// faked reports whether a resource is faked, and the values its
// computed attributes take: an override_resource's of the instance, else
// of every instance of its resource, else its mock provider's.
func (m *mockProvider) faked(urn resource.URN) (tftest.Override, bool) {
	if v, ok := m.overrides[urn.Name()]; ok {
		return v, true
	}
	if v, ok := m.overrides[hcl.OverrideAddr(urn.Name())]; ok {
		return v, true
	}
	if !m.all {
		return tftest.Override{}, false
	}
	if v, ok := m.mock.Resources[typeName(urn.Type())]; ok {
		return v, true
	}
	return tftest.Override{DuringPlan: m.mock.DuringPlan}, true
}

// typeName is a Terraform type name from its token (random:index:random_pet).
func typeName(token string) string { return token[strings.LastIndex(token, ":")+1:] }

// configName is the mocks' key of the provider configuration a provider
// resource is: NAME, or NAME.ALIAS (its name ends provider.NAME.ALIAS).
func configName(pkg string, urn resource.URN) string {
	prefix := "provider." + pkg + "."
	if i := strings.LastIndex(urn.Name(), prefix); i >= 0 {
		return pkg + "." + urn.Name()[i+len(prefix):]
	}
	return pkg
}

func (m *mockProvider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	m.mock, m.all = m.mocks[configName(m.pkg, req.URN)]
	if m.all {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	return m.Provider.CheckConfig(ctx, req)
}

func (m *mockProvider) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	if m.all {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	return m.Provider.DiffConfig(ctx, req)
}

func (m *mockProvider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	if m.all {
		return provider.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
	}
	return m.Provider.Configure(ctx, req)
}

func (m *mockProvider) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	if _, ok := m.faked(req.URN); ok {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	return m.Provider.Check(ctx, req)
}

func (m *mockProvider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	if _, ok := m.faked(req.URN); ok {
		return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
	}
	return m.Provider.Diff(ctx, req)
}

func (m *mockProvider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	v, ok := m.faked(req.URN)
	if !ok {
		return m.Provider.Create(ctx, req)
	}
	out := m.fill(ctx, m.outputs(ctx, req.URN.Type()), req.Inputs, nil, v.Values, req.Preview && !v.DuringPlan)
	id := "mock"
	if s := out["id"]; s.Kind() == resource.StringKind {
		id = s.Str()
	}
	return provider.CreateResponse{ID: id, Outputs: out}, nil
}

func (m *mockProvider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	v, ok := m.faked(req.URN)
	if !ok {
		return m.Provider.Update(ctx, req)
	}
	return provider.UpdateResponse{Outputs: m.fill(ctx, m.outputs(ctx, req.URN.Type()), req.News, req.OldOutputs, v.Values, req.Preview && !v.DuringPlan)}, nil
}

func (m *mockProvider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	if _, ok := m.faked(req.URN); ok {
		return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.State}, nil
	}
	return m.Provider.Read(ctx, req)
}

func (m *mockProvider) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	if _, ok := m.faked(req.URN); ok {
		return provider.DeleteResponse{}, nil
	}
	return m.Provider.Delete(ctx, req)
}

// Invoke fakes a mocked provider's data sources; its functions and
// every other provider's data sources are real.
func (m *mockProvider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	s := m.getSchema(ctx)
	fn, isData := s.Functions[req.Token]
	if !m.all || !isData || strings.Contains(req.Token, "::") {
		return m.Provider.Invoke(ctx, req)
	}
	return provider.InvokeResponse{Return: m.fill(ctx, fn.Outputs, req.Args, nil, m.mock.Data[typeName(req.Token)].Values, false)}, nil
}

// outputs are a resource type's attributes.
func (m *mockProvider) outputs(ctx context.Context, token string) map[string]schema.Property {
	return m.getSchema(ctx).Resources[token].Outputs
}

func (m *mockProvider) getSchema(ctx context.Context) *schema.Schema {
	m.once.Do(func() {
		if res, err := m.Provider.GetSchema(ctx, provider.GetSchemaRequest{}); err == nil && res.Schema != nil {
			m.schema = res.Schema
		}
		if m.schema == nil {
			m.schema = &schema.Schema{}
		}
	})
	return m.schema
}

// fill makes a faked object: the configured values as given, every
// other attribute from old (an update keeps what the create made), else
// from values, else generated as terraform's mocks generate them. In a
// preview (a plan without override_during = plan) an attribute neither
// configured nor kept from old is unknown, the values given too, as
// terraform test has them.
func (m *mockProvider) fill(_ context.Context, attrs map[string]schema.Property, inputs, old, values resource.Object, preview bool) resource.Object {
	out := inputs.Copy()
	for name, p := range attrs {
		if v, ok := out[name]; ok && !v.IsNull() {
			continue
		}
		switch v, ok := values[name]; {
		case old != nil && !old[name].IsUnknown() && !old[name].IsNull() && (preview || !ok):
			out[name] = old[name]
		case preview:
			out[name] = resource.Unknown()
		case ok:
			out[name] = v
		default:
			out[name] = hcl.MockValue(p.Type)
		}
	}
	return out
}
