package inproc

import (
	"context"
	"errors"

	"github.com/plinth-iac/plinth/internal/provider"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
)

// Provider is an SDK provider seen through the engine's interface. It is
// safe for concurrent use, as the SDK provider is.
type Provider struct {
	p    sdk.Provider
	pure func(token string) bool
}

var _ provider.Provider = (*Provider)(nil)

var _ provider.Pure = (*Provider)(nil)

// New adapts p. Each engine provider instance needs its own SDK provider
// (its own configuration), so give New a fresh one each time.
func New(p sdk.Provider, opts ...Option) *Provider {
	a := &Provider{p: p}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Option configures an adapted provider.
type Option func(*Provider)

// WithPure declares which of the provider's resource types are pure (see
// provider.Pure): pure(token) must be true only for a type whose create,
// update and delete compute in memory and act on nothing outside plinth's
// state. The provider's package declares it, next to the types.
func WithPure(pure func(token string) bool) Option {
	return func(a *Provider) { a.pure = pure }
}

// Pure implements provider.Pure: a type is pure only as WithPure declared.
func (a *Provider) Pure(typ string) bool { return a.pure != nil && a.pure(typ) }

// GetPluginInfo implements provider.Provider.
func (a *Provider) GetPluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	resp, err := a.p.GetPluginInfo(ctx, sdk.GetPluginInfoRequest{})
	return provider.PluginInfo{Name: resp.Name, Version: resp.Version}, err
}

// GetSchema implements provider.Provider.
func (a *Provider) GetSchema(ctx context.Context, _ provider.GetSchemaRequest) (provider.GetSchemaResponse, error) {
	resp, err := a.p.GetSchema(ctx, sdk.GetSchemaRequest{})
	if err != nil {
		return provider.GetSchemaResponse{}, err
	}
	return provider.GetSchemaResponse{Schema: toSchema(resp.Schema)}, nil
}

// CheckConfig implements provider.Provider.
func (a *Provider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	resp, err := a.p.CheckConfig(ctx, toCheckRequest(req))
	return fromCheckResponse(resp), err
}

// DiffConfig implements provider.Provider.
func (a *Provider) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	resp, err := a.p.DiffConfig(ctx, toDiffRequest(req))
	return fromDiffResponse(resp), err
}

// Configure implements provider.Provider.
func (a *Provider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	resp, err := a.p.Configure(ctx, sdk.ConfigureRequest{Inputs: req.Inputs, Preview: req.Preview})
	return provider.ConfigureResponse{
		AcceptSecrets:   resp.AcceptSecrets,
		AcceptResources: resp.AcceptResources,
		SupportsPreview: resp.SupportsPreview,
	}, err
}

// Check implements provider.Provider.
func (a *Provider) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	resp, err := a.p.Check(ctx, toCheckRequest(req))
	return fromCheckResponse(resp), err
}

// Diff implements provider.Provider.
func (a *Provider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	resp, err := a.p.Diff(ctx, toDiffRequest(req))
	return fromDiffResponse(resp), err
}

// Create implements provider.Provider.
func (a *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	resp, err := a.p.Create(ctx, sdk.CreateRequest{URN: req.URN, Inputs: req.Inputs, Timeout: req.Timeout, Preview: req.Preview})
	outs, private := takePrivate(resp.Outputs, nil)
	return provider.CreateResponse{ID: resp.ID, Outputs: outs, Private: private}, mutationError(err)
}

// Read implements provider.Provider. The resource's private data (see
// private.go) goes to Read and comes back, changed or not.
func (a *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	resp, err := a.p.Read(ctx, sdk.ReadRequest{URN: req.URN, ID: req.ID, Inputs: req.Inputs, State: givePrivate(req.State, req.Private)})
	if err != nil || resp.ID == "" {
		return provider.ReadResponse{}, err
	}
	outs, private := takePrivate(resp.Outputs, req.Private)
	return provider.ReadResponse{ID: resp.ID, Inputs: resp.Inputs, Outputs: outs, Private: private}, nil
}

// Update implements provider.Provider.
func (a *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	resp, err := a.p.Update(ctx, sdk.UpdateRequest{
		URN: req.URN, ID: req.ID, OldInputs: req.OldInputs, OldOutputs: givePrivate(req.OldOutputs, req.Private), News: req.News,
		Timeout: req.Timeout, IgnoreChanges: req.IgnoreChanges, Preview: req.Preview,
	})
	if err != nil {
		return provider.UpdateResponse{}, mutationError(err)
	}
	outs, private := takePrivate(resp.Outputs, req.Private)
	return provider.UpdateResponse{Outputs: outs, Private: private}, nil
}

// Delete implements provider.Provider.
func (a *Provider) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	_, err := a.p.Delete(ctx, sdk.DeleteRequest{URN: req.URN, ID: req.ID, Inputs: req.Inputs,
		Outputs: givePrivate(req.Outputs, req.Private), Timeout: req.Timeout})
	return provider.DeleteResponse{}, mutationError(err)
}

// Invoke implements provider.Provider.
func (a *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	resp, err := a.p.Invoke(ctx, sdk.InvokeRequest{Token: req.Token, Args: req.Args})
	return provider.InvokeResponse{Return: resp.Return, Failures: fromFailures(resp.Failures)}, err
}

// SignalCancellation implements provider.Provider: it cancels the SDK
// provider's calls in flight.
func (a *Provider) SignalCancellation(ctx context.Context) error {
	_, err := a.p.Cancel(ctx, sdk.CancelRequest{})
	return err
}

// Close implements provider.Provider. Nothing is left running: any call
// still in flight is cancelled.
func (a *Provider) Close() error {
	_, err := a.p.Cancel(context.Background(), sdk.CancelRequest{})
	return err
}

// mutationError is the error of a Create, Update or Delete: a panic the
// SDK recovered stopped the call at an unknown point, after which the
// resource may or may not exist, so its outcome is unknown; an InitError
// becomes the engine's.
func mutationError(err error) error {
	var pe *sdk.PanicError
	if errors.As(err, &pe) {
		return provider.OutcomeUnknown(err)
	}
	return fromError(err)
}

// fromError turns an SDK InitError into the engine's, keeping other errors.
func fromError(err error) error {
	var ie *sdk.InitError
	if errors.As(err, &ie) {
		return &provider.InitError{ID: ie.ID, Outputs: ie.Outputs, Reasons: ie.Reasons}
	}
	return err
}

// Construct implements provider.Provider: an SDK provider served in
// process has no components yet.
func (a *Provider) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	info, _ := a.GetPluginInfo(ctx)
	return provider.ConstructResponse{}, provider.NoComponents(info.Name, req.Type)
}

// Call implements provider.Provider: an SDK provider served in process
// has no components yet.
func (a *Provider) Call(ctx context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	info, _ := a.GetPluginInfo(ctx)
	return provider.CallResponse{}, provider.NoComponents(info.Name, req.Token)
}
