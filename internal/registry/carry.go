package registry

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// Carrying: `plinth up` runs two operations, a preview and then the
// update, and each opens its providers and closes them as it ends. A
// Source told to Carry keeps a provider the first operation closes, still
// running and configured, and hands it to the next NewProvider that picks
// the same binary, so the update does not start (and hand-shake with, and
// fetch the schema of) the process the preview just stopped. It is
// reused only as it was: the next operation's Configure is skipped when
// the provider already has exactly that configuration, wholly known
// (ConfiguredAs); asked for any other configuration, the carried process
// is closed and a fresh one started and configured, since a Terraform
// provider is never configured twice. A provider the first operation
// never configured (it only asked for the schema) is carried as a fresh
// one. A provider whose process has exited, or that was told to stop
// because the command was cancelled, is not carried. Only providers that can answer these questions
// (Carriable: Terraform providers) are carried; Release closes what is
// left when the command ends.

// Carriable is a provider a Source can carry from one operation to the
// next.
type Carriable interface {
	provider.Provider
	provider.Ephemeral
	// Exited reports whether the provider's process has exited.
	Exited() bool
	// ConfiguredAs reports whether the provider was configured, with
	// no unknown values, exactly as req would configure it.
	ConfiguredAs(req provider.ConfigureRequest) bool
}

// carrying holds the Source's carried providers, by path.
type carrying struct {
	mu sync.Mutex
	// cancelled is the command's context, done once it is cancelled; nil
	// while the Source does not carry.
	cancelled context.Context
	parked    map[string][]parked
}

// parked is a provider an operation closed, kept for the next; resp is
// how it answered its Configure, nil if it was never configured (an
// operation that only asked its schema, as a destroy's preview may).
type parked struct {
	p    Carriable
	resp *provider.ConfigureResponse
}

// Carry makes the Source keep the providers an operation closes for the
// next operation of the same command (see above) until Release. ctx is
// the command's: once it is cancelled, a provider asked to stop is told
// so and not carried.
func (s *Source) Carry(ctx context.Context) {
	s.carry.mu.Lock()
	defer s.carry.mu.Unlock()
	s.carry.cancelled = ctx
}

// carrying reports whether the Source carries providers and the command
// has not been cancelled.
func (s *Source) carrying() bool {
	s.carry.mu.Lock()
	defer s.carry.mu.Unlock()
	return s.carry.cancelled != nil && s.carry.cancelled.Err() == nil
}

// carriable wraps a provider just started from p so that its Close can
// carry it, when the Source carries and the provider can be carried.
func (s *Source) carriable(p plugin.Plugin, l Launcher, prov provider.Provider) provider.Provider {
	cp, ok := prov.(Carriable)
	if !ok || !s.carrying() {
		return prov
	}
	c := &carried{src: s, plugin: p, launcher: l}
	c.cur.Store(&cp)
	return c
}

// takeCarried returns a provider carried from an earlier operation for
// the binary at p.Path; nil if there is none still running.
func (s *Source) takeCarried(p plugin.Plugin, l Launcher) provider.Provider {
	s.carry.mu.Lock()
	defer s.carry.mu.Unlock()
	for list := s.carry.parked[p.Path]; len(list) > 0; list = s.carry.parked[p.Path] {
		k := list[len(list)-1]
		s.carry.parked[p.Path] = list[:len(list)-1]
		if k.p.Exited() {
			_ = k.p.Close()
			continue
		}
		c := &carried{src: s, plugin: p, launcher: l, prior: k.resp}
		c.cur.Store(&k.p)
		return c
	}
	return nil
}

// park keeps c's provider, configured as resp says (nil: never), for the
// next operation; false if it cannot be carried (the Source does not
// carry, the command was cancelled, the provider was told to stop, or
// has exited).
func (s *Source) park(c *carried, resp *provider.ConfigureResponse) bool {
	p := c.get()
	if c.spoiled.Load() || p.Exited() {
		return false
	}
	s.carry.mu.Lock()
	defer s.carry.mu.Unlock()
	if s.carry.cancelled == nil || s.carry.cancelled.Err() != nil {
		return false
	}
	if s.carry.parked == nil {
		s.carry.parked = map[string][]parked{}
	}
	s.carry.parked[c.plugin.Path] = append(s.carry.parked[c.plugin.Path], parked{p: p, resp: resp})
	return true
}

// releaseCarried stops carrying and closes the providers left.
func (s *Source) releaseCarried() {
	s.carry.mu.Lock()
	left := s.carry.parked
	s.carry.parked, s.carry.cancelled = nil, nil
	s.carry.mu.Unlock()
	for _, list := range left {
		for _, k := range list {
			_ = k.p.Close()
		}
	}
}

// carried is a provider of one operation that its Source may carry to
// the next. Calls go to cur, which Configure replaces by a fresh process
// when the carried one was configured otherwise.
type carried struct {
	src      *Source
	plugin   plugin.Plugin
	launcher Launcher
	cur      atomic.Pointer[Carriable]
	spoiled  atomic.Bool // told to stop: never carried

	mu sync.Mutex // Configure's
	// prior is how cur was configured in an earlier operation; nil for a
	// provider started in this one, or never configured.
	prior *provider.ConfigureResponse
	// resp is what this operation's Configure answered; nil until then.
	resp *provider.ConfigureResponse
}

var (
	_ provider.Provider  = (*carried)(nil)
	_ provider.Ephemeral = (*carried)(nil)
)

func (c *carried) get() Carriable { return *c.cur.Load() }

// Configure implements provider.Provider: a provider carried with
// exactly this configuration is not configured again; one carried with
// another is replaced by a fresh process, configured as asked.
func (c *carried) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.get()
	if prior := c.prior; prior != nil {
		c.prior = nil
		if p.ConfiguredAs(req) && !p.Exited() {
			c.resp = prior
			return *prior, nil
		}
		fresh, err := c.relaunch(ctx)
		if err != nil {
			return provider.ConfigureResponse{}, err
		}
		c.cur.Store(&fresh)
		_ = p.Close()
		p = fresh
	}
	resp, err := p.Configure(ctx, req)
	if err == nil {
		c.resp = &resp
	}
	return resp, err
}

// relaunch starts a fresh process of the carried provider's plugin.
func (c *carried) relaunch(ctx context.Context) (Carriable, error) {
	prov, err := c.launcher.Launch(ctx, c.plugin)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.plugin, err)
	}
	cp, ok := prov.(Carriable)
	if !ok {
		_ = prov.Close()
		return nil, fmt.Errorf("starting %s: the launcher returned a provider plinth cannot carry (%T)", c.plugin, prov)
	}
	return cp, nil
}

// SignalCancellation implements provider.Provider. An operation ending
// tells its providers to stop before it closes them, with nothing in
// flight; while the command is not cancelled that is all a signal can
// mean, and it is not passed on to a provider that may be carried (its
// Close follows). Once the command is cancelled the signal is passed on
// and the provider is never carried.
func (c *carried) SignalCancellation(ctx context.Context) error {
	if c.src.carrying() {
		return nil
	}
	c.spoiled.Store(true)
	return c.get().SignalCancellation(ctx)
}

// Close implements provider.Provider: the provider is carried, as
// configured in this operation or an earlier one or not at all, when it
// can be; otherwise closed.
func (c *carried) Close() error {
	c.mu.Lock()
	resp := c.resp
	if resp == nil {
		resp = c.prior
	}
	c.mu.Unlock()
	if c.src.park(c, resp) {
		return nil
	}
	return c.get().Close()
}

// The rest go to the current process.

func (c *carried) GetPluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	return c.get().GetPluginInfo(ctx)
}

func (c *carried) GetSchema(ctx context.Context, req provider.GetSchemaRequest) (provider.GetSchemaResponse, error) {
	return c.get().GetSchema(ctx, req)
}

func (c *carried) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return c.get().CheckConfig(ctx, req)
}

func (c *carried) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	return c.get().DiffConfig(ctx, req)
}

func (c *carried) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return c.get().Check(ctx, req)
}

func (c *carried) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	return c.get().Diff(ctx, req)
}

func (c *carried) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	return c.get().Create(ctx, req)
}

func (c *carried) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	return c.get().Read(ctx, req)
}

func (c *carried) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	return c.get().Update(ctx, req)
}

func (c *carried) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	return c.get().Delete(ctx, req)
}

func (c *carried) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	return c.get().Invoke(ctx, req)
}

func (c *carried) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	return c.get().Construct(ctx, req)
}

func (c *carried) Call(ctx context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	return c.get().Call(ctx, req)
}

func (c *carried) OpenEphemeral(ctx context.Context, req provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
	return c.get().OpenEphemeral(ctx, req)
}

func (c *carried) RenewEphemeral(ctx context.Context, req provider.RenewEphemeralRequest) (provider.RenewEphemeralResponse, error) {
	return c.get().RenewEphemeral(ctx, req)
}

func (c *carried) CloseEphemeral(ctx context.Context, req provider.CloseEphemeralRequest) error {
	return c.get().CloseEphemeral(ctx, req)
}
