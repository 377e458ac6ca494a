package tfplugin

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	plschema "github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider is a running Terraform provider process seen through the
// engine's provider.Provider interface. One Provider is one provider
// configuration: every call goes to the same process until Close.
type Provider struct {
	cfg        Config
	client     *plugin.Client
	wire       wire
	protocol   int
	tail       *outputTail
	runner     *procRunner
	schemas    schemaResponse
	configured atomic.Bool
	// config is the configuration the provider was given, for the sums
	// of kept plans (reuse.go).
	config atomic.Pointer[providerConfig]
	plans  planCache
	// validated remembers ValidateResourceConfig's answers (validated.go).
	validated validations
	// checked keeps the configuration Check built, for the call that
	// follows it (checked.go).
	checked checkedConfigs
	// producer fingerprints this binary and protocol for the states it
	// writes (private.go); nil when the binary's checksum is unknown.
	producer []byte
	// sum is the binary's checksum, "" if unknown; gc is the collector
	// setting it was started with (gogc.go).
	sum string
	gc  grpcplugin.Collector

	exportOnce sync.Once
	exported   *plschema.Schema
	closeOnce  sync.Once
}

var _ provider.Provider = (*Provider)(nil)

// engineKeys are properties the engine may add to a provider's inputs that
// are not Terraform configuration.
var engineKeys = map[string]bool{"version": true, "pluginDownloadURL": true}

// Start launches the provider in cfg.Dir, negotiates protocol 5 or 6, and
// fetches its schema (once: it serves every later call).
func Start(ctx context.Context, cfg Config) (*Provider, error) {
	if name, version, ok := ParseBinaryName(cfg.Path); ok {
		if cfg.Name == "" {
			cfg.Name = name
		}
		if cfg.Version == "" {
			cfg.Version = version
		}
	}
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Path)
	}
	tail := newOutputTail()
	cache := schemacache.Cache{Dir: cfg.SchemaCache}
	known, sums := binarySum(cache, cfg.Path)
	gc, err := grpcplugin.CollectorFor(cache, known, cfg.Env)
	if err != nil {
		<-sums // the checksum may be written to the cache: nothing of Start outlives it
		return nil, fmt.Errorf("starting Terraform provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	client, run, w, err := launch(ctx, cfg, gc.Env, tail)
	if err != nil {
		<-sums
		return nil, err
	}
	p := &Provider{cfg: cfg, client: client, runner: run, wire: w, protocol: client.NegotiatedVersion(), tail: tail, gc: gc}
	sum := <-sums
	p.sum = sum
	p.producer = producerOf(sum, p.protocol)
	if p.schemas, err = p.loadSchema(ctx, schemaEntry(sum, p.protocol)); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// binarySum returns the checksum of the binary at path if it is recorded
// (known), and a channel that will hold its checksum: the recorded one,
// or one computed while the binary starts ("" when there is no cache or
// the binary cannot be read).
func binarySum(cache schemacache.Cache, path string) (known string, sums <-chan string) {
	ch := make(chan string, 1)
	if known = cache.KnownSum(path); known != "" {
		ch <- known
	} else {
		go func() { ch <- cache.Sum(path) }()
	}
	return known, ch
}

// loadSchema reads the provider's schema from the cache entry key, or asks
// the provider (GetProviderSchema) and keeps its answer there.
func (p *Provider) loadSchema(ctx context.Context, key string) (schemaResponse, error) {
	cache := schemacache.Cache{Dir: p.cfg.SchemaCache}
	if resp, ok := cachedSchema(cache, key, p.wire); ok {
		return resp, nil
	}
	resp, err := p.wire.schema(ctx)
	if err == nil {
		err = p.diagnose("GetProviderSchema", resp.diags)
	}
	if err != nil {
		return resp, p.rpcError("GetProviderSchema", err)
	}
	keepSchema(cache, key, resp)
	return resp, nil
}

// Protocol returns the negotiated protocol major version, 5 or 6.
func (p *Provider) Protocol() int { return p.protocol }

// GetPluginInfo implements provider.Provider.
func (p *Provider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Name: p.cfg.Name, Version: p.cfg.Version}, nil
}

// GetSchema implements provider.Provider. Resource and data source types are
// named by the shared convention, random_pet as random:index:random_pet.
func (p *Provider) GetSchema(context.Context, provider.GetSchemaRequest) (provider.GetSchemaResponse, error) {
	p.exportOnce.Do(func() { p.exported = p.export() })
	return provider.GetSchemaResponse{Schema: p.exported}, nil
}

// CheckConfig implements provider.Provider: ValidateProviderConfig (or
// PrepareProviderConfig) after checking the inputs against the schema.
func (p *Provider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	op := "CheckConfig of provider " + p.cfg.Name
	cb := configBuilder{strict: true, ignore: engineKeys}
	b := p.schemas.provider.block
	cfg := cb.root(b, req.News)
	if len(cb.failures) > 0 {
		return provider.CheckResponse{Failures: cb.failures}, nil
	}
	dv, err := encode(cfg, b.impliedType())
	if err != nil {
		return provider.CheckResponse{}, err
	}
	diags, err := p.wire.validateProviderConfig(ctx, dv)
	if err != nil {
		return provider.CheckResponse{}, p.rpcError(op, err)
	}
	return provider.CheckResponse{Inputs: markSensitive(b, req.News), Failures: p.failures(op, diags)}, nil
}

// DiffConfig implements provider.Provider. Terraform reconfigures a provider
// in place, so a changed configuration never replaces it.
func (p *Provider) DiffConfig(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	strip := func(o resource.Object) resource.Object {
		out := resource.Object{}
		for k, v := range o {
			if !engineKeys[k] {
				out[k] = v
			}
		}
		return out
	}
	dd := resource.DiffObjects(strip(req.OldInputs), strip(req.News), nil)
	if len(dd) == 0 {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	return provider.DiffResponse{Changes: provider.DiffSome, DetailedDiff: dd, ChangedKeys: topKeys(dd)}, nil
}

// Configure implements provider.Provider: ConfigureProvider (or Configure).
// During a preview the configuration may hold unknowns; they are sent as
// unknowns, as Terraform does, and the provider decides what it can do.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	op := "Configure of provider " + p.cfg.Name
	cb := configBuilder{ignore: engineKeys}
	b := p.schemas.provider.block
	cfg := cb.root(b, req.Inputs)
	if err := failuresError(op, cb.failures); err != nil {
		return provider.ConfigureResponse{}, err
	}
	dv, err := encode(cfg, b.impliedType())
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	diags, err := p.wire.configure(ctx, dv)
	if err != nil {
		return provider.ConfigureResponse{}, p.rpcError(op, err)
	}
	if err := p.diagnose(op, diags); err != nil {
		return provider.ConfigureResponse{}, err
	}
	p.config.Store(&providerConfig{sum: sha256.Sum256(dv.msgpack), known: cfg.IsWhollyKnown()})
	p.configured.Store(true)
	return provider.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
}

// failuresError turns check failures found outside Check into an error.
func failuresError(op string, failures []provider.CheckFailure) error {
	if len(failures) == 0 {
		return nil
	}
	msgs := make([]string, len(failures))
	for i, f := range failures {
		msgs[i] = f.String()
	}
	return fmt.Errorf("%s: invalid inputs: %s", op, strings.Join(msgs, "; "))
}

// SignalCancellation implements provider.Provider: Stop (or StopProvider),
// sent in the background so the caller does not wait.
func (p *Provider) SignalCancellation(context.Context) error {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.wire.stop(ctx)
	}()
	return nil
}

// stopGrace bounds how long Close waits for the provider's Stop.
const stopGrace = 5 * time.Second

// Close implements provider.Provider: Stop, then go-plugin's kill, which
// asks the process to exit and kills it if it does not, and last a kill of
// the process group, for children the provider left behind.
func (p *Provider) Close() error {
	p.closeOnce.Do(func() {
		peak := p.peakRSS()
		if !p.client.Exited() {
			ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
			_ = p.wire.stop(ctx)
			cancel()
		}
		p.client.Kill()
		if p.runner != nil {
			_ = p.runner.Kill(context.Background())
		}
		p.recordMemory(peak)
	})
	return nil
}

// errNotConfigured is returned for resource calls before Configure.
var errNotConfigured = errors.New("the provider has not been configured; Configure must come before resource operations")

// target is the resource or data source type one call is about.
type target struct {
	urn  resource.URN
	name string // Terraform type name, e.g. random_pet
	s    *schema
	ty   cty.Type
	op   string // for messages: `Create of random_pet "pet"`
}

// typeName takes the Terraform type name from a type token: its last
// colon-separated part.
func typeName(token string) string {
	return token[strings.LastIndex(token, ":")+1:]
}

// resourceTarget resolves a resource's type and requires configuration.
func (p *Provider) resourceTarget(urn resource.URN, verb string) (target, error) {
	name := typeName(urn.Type())
	op := fmt.Sprintf("%s of %s %q", verb, name, urn.Name())
	s, ok := p.schemas.resources[name]
	if !ok {
		return target{}, fmt.Errorf("%s: provider %s has no resource type %s (type token %s); check the type name against the provider's documentation",
			op, p.cfg.Name, name, urn.Type())
	}
	if !p.configured.Load() {
		return target{}, fmt.Errorf("%s: provider %s: %w", op, p.cfg.Name, errNotConfigured)
	}
	return target{urn: urn, name: name, s: s, ty: s.block.impliedType(), op: op}, nil
}

// planCache keeps the plan Diff made for a resource, so that Update can
// refuse a final plan that breaks it.
type planCache struct {
	mu    sync.Mutex
	plans map[resource.URN]cty.Value
}

func (c *planCache) store(urn resource.URN, planned cty.Value) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plans == nil {
		c.plans = map[resource.URN]cty.Value{}
	}
	c.plans[urn] = planned
}

func (c *planCache) forget(urn resource.URN) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.plans, urn)
}

func (c *planCache) take(urn resource.URN) (cty.Value, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.plans[urn]
	delete(c.plans, urn)
	return v, ok
}

// Construct implements provider.Provider: Terraform providers have no
// components.
func (p *Provider) Construct(_ context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	return provider.ConstructResponse{}, provider.NoComponents(p.cfg.Name, req.Type)
}

// Call implements provider.Provider: Terraform providers have no
// components.
func (p *Provider) Call(_ context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	return provider.CallResponse{}, provider.NoComponents(p.cfg.Name, req.Token)
}
