package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// UnknownID is the ID of a resource not yet created, in a preview.
const UnknownID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

// Reserved provider-resource inputs: recorded in state so that a provider
// can be loaded again from state alone, and stripped before the provider
// sees its configuration.
const (
	versionKey = "version"
	sourceKey  = "source"
)

// instance is one configured provider, serving the resources of one
// provider resource (one configuration).
type instance struct {
	ref    string
	pkg    string
	p      provider.Provider
	config resource.Object // checked configuration, without reserved keys
	once   sync.Once       // loading from state, for instances made lazily
	err    error
}

// providerRegistry holds the deployment's provider instances: one per
// provider resource, shared by all its resources.
type providerRegistry struct {
	source ProviderSource
	// ctx is what provider calls run under (see executor.ctx).
	ctx context.Context
	// recorded finds a provider resource in the state, to load a provider
	// the program did not register.
	recorded func(urn resource.URN, id string) *state.Resource
	// configure configures a provider (for a preview, to plan).
	configure func(ctx context.Context, p provider.Provider, inputs resource.Object) error
	// registerDefault registers the default provider resource of a package
	// and version, returning its reference.
	registerDefault func(pkg, version, source, downloadURL string) (string, error)
	// defaultName names the default provider resource of a version: the
	// registry keeps one default provider per package and name.
	defaultName func(version string) string

	mu       sync.Mutex
	byRef    map[string]*instance
	defaults map[string]*defaultProvider
	loose    map[string]provider.Provider // unconfigured, made for a schema
	schemas  map[string]*schema.Schema
	all      []provider.Provider
}

type defaultProvider struct {
	once sync.Once
	ref  string
	err  error
}

func newProviderRegistry(source ProviderSource, ctx context.Context) *providerRegistry {
	return &providerRegistry{
		source:      source,
		ctx:         ctx,
		defaultName: state.DefaultProviderName,
		byRef:       map[string]*instance{},
		defaults:    map[string]*defaultProvider{},
		loose:       map[string]provider.Provider{},
		schemas:     map[string]*schema.Schema{},
	}
}

// open makes a new provider instance, reusing an unconfigured one made for
// a schema if there is one.
func (r *providerRegistry) open(ctx context.Context, req ProviderRequest) (provider.Provider, error) {
	key := req.Package + "@" + req.Version
	r.mu.Lock()
	if p, ok := r.loose[key]; ok {
		delete(r.loose, key)
		r.mu.Unlock()
		return p, nil
	}
	r.mu.Unlock()
	if r.source == nil {
		return nil, fmt.Errorf("no provider source is configured to load provider %q", req.Package)
	}
	p, err := r.source.NewProvider(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("loading provider %q: %w", req.Package, err)
	}
	r.mu.Lock()
	r.all = append(r.all, p)
	r.mu.Unlock()
	return p, nil
}

// schema returns a package's schema, from an instance kept for reuse.
func (r *providerRegistry) schema(ctx context.Context, pkg, version string) (*schema.Schema, error) {
	key := pkg + "@" + version
	r.mu.Lock()
	if s, ok := r.schemas[key]; ok {
		r.mu.Unlock()
		return s, nil
	}
	r.mu.Unlock()
	p, err := r.open(ctx, ProviderRequest{Package: pkg, Version: version})
	if err != nil {
		return nil, err
	}
	var resp provider.GetSchemaResponse
	err = guard(func() error { resp, err = p.GetSchema(ctx, provider.GetSchemaRequest{}); return err })
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loose[key] = p
	if err != nil {
		return nil, fmt.Errorf("getting the schema of provider %q: %w", pkg, err)
	}
	r.schemas[key] = resp.Schema
	return resp.Schema, nil
}

func (r *providerRegistry) add(inst *instance) {
	r.mu.Lock()
	r.byRef[inst.ref] = inst
	r.mu.Unlock()
}

// forRegistration returns the instance that manages a registered resource:
// its explicit provider, or the default provider for its package.
func (r *providerRegistry) forRegistration(reg *Registration) (*instance, error) {
	pkg := packageOf(reg.Type)
	if reg.Provider == "" {
		return r.defaultFor(pkg, reg.Version, reg.PluginSource, reg.PluginDownloadURL)
	}
	r.mu.Lock()
	inst := r.byRef[reg.Provider]
	r.mu.Unlock()
	if inst == nil {
		return nil, fmt.Errorf("provider %s is not registered by the program; declare it before the resources that use it", reg.Provider)
	}
	if inst.pkg != pkg {
		return nil, fmt.Errorf("provider %s is for package %q, but type %s belongs to package %q", reg.Provider, inst.pkg, reg.Type, pkg)
	}
	return inst, nil
}

// defaultFor sets up the default provider resource for a package and
// version once, on first use.
func (r *providerRegistry) defaultFor(pkg, version, source, downloadURL string) (*instance, error) {
	key := pkg + "::" + r.defaultName(version)
	r.mu.Lock()
	dp, ok := r.defaults[key]
	if !ok {
		dp = &defaultProvider{}
		r.defaults[key] = dp
	}
	r.mu.Unlock()
	dp.once.Do(func() { dp.ref, dp.err = r.registerDefault(pkg, version, source, downloadURL) })
	if dp.err != nil {
		return nil, dp.err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byRef[dp.ref], nil
}

// forRef returns the instance for a recorded provider reference, loading
// and configuring it from state if the program did not register it.
func (r *providerRegistry) forRef(ref string) (*instance, error) {
	r.mu.Lock()
	inst, ok := r.byRef[ref]
	if !ok {
		inst = &instance{ref: ref}
		r.byRef[ref] = inst
	}
	r.mu.Unlock()
	inst.once.Do(func() {
		if inst.p == nil {
			inst.err = r.loadFromState(inst)
		}
	})
	return inst, inst.err
}

func (r *providerRegistry) loadFromState(inst *instance) error {
	urn, id, err := state.ParseProviderRef(inst.ref)
	if err != nil {
		return err
	}
	rec := r.recorded(urn, id)
	if rec == nil {
		return fmt.Errorf("provider %s is not recorded in the state", inst.ref)
	}
	inst.pkg = strings.TrimPrefix(rec.Type, state.ProviderTypePrefix)
	req := ProviderRequest{Package: inst.pkg, Version: rec.Inputs[versionKey].Str(), Source: rec.Inputs[sourceKey].Str()}
	p, err := r.open(r.ctx, req)
	if err != nil {
		return err
	}
	inst.p, inst.config = p, stripReserved(rec.Inputs)
	if err := r.configure(r.ctx, p, inst.config); err != nil {
		return fmt.Errorf("configuring provider %s from its recorded configuration: %w", inst.ref, err)
	}
	return nil
}

// signalAll asks every provider to stop outstanding work soon; the
// operation was cancelled.
func (r *providerRegistry) signalAll() {
	r.mu.Lock()
	all := append([]provider.Provider(nil), r.all...)
	r.mu.Unlock()
	for _, p := range all {
		_ = guard(func() error { return p.SignalCancellation(context.Background()) })
	}
}

// closeAll signals cancellation to every provider and closes it.
func (r *providerRegistry) closeAll() {
	r.mu.Lock()
	all := r.all
	r.all = nil
	r.mu.Unlock()
	for _, p := range all {
		_ = guard(func() error { return p.SignalCancellation(context.Background()) })
		_ = guard(p.Close)
	}
}

func configure(ctx context.Context, p provider.Provider, inputs resource.Object, preview bool) error {
	return guard(func() error {
		_, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: inputs, Preview: preview})
		return err
	})
}

// withReserved records the plugin version and source with a provider's
// configuration.
func withReserved(inputs resource.Object, version, source string) resource.Object {
	out := inputs.Copy()
	if out == nil {
		out = resource.Object{}
	}
	if version != "" {
		out[versionKey] = resource.NewString(version)
	}
	if source != "" {
		out[sourceKey] = resource.NewString(source)
	}
	return out
}

func stripReserved(inputs resource.Object) resource.Object {
	if _, v := inputs[versionKey]; !v {
		if _, s := inputs[sourceKey]; !s {
			return inputs
		}
	}
	out := inputs.Copy()
	delete(out, versionKey)
	delete(out, sourceKey)
	return out
}

// packageOf returns the package of a type token ("random" for
// "random:index:random_pet"; "aws" for "pulumi:providers:aws").
func packageOf(typ string) string {
	if state.IsProviderType(typ) {
		return strings.TrimPrefix(typ, state.ProviderTypePrefix)
	}
	pkg, _, _ := strings.Cut(typ, ":")
	return pkg
}

func newProviderID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// cachedSchema returns a package's schema if it has been fetched, without
// starting a provider.
func (r *providerRegistry) cachedSchema(pkg, version string) *schema.Schema {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.schemas[pkg+"@"+version]
}
