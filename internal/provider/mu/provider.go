package mu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/internal/provider/mu/mupb"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider is a Mu-protocol plugin seen through provider.Provider. It is
// safe for concurrent use.
type Provider struct {
	cfg    Config
	conn   *grpc.ClientConn
	client mupb.ResourceProviderClient
	proc   *process // nil for a provider on a connection it did not start

	closed atomic.Bool
}

var _ provider.Provider = (*Provider)(nil)

// New makes a Provider over a client already connected (a plugin served
// in process, in tests). Close does not close the connection.
func New(name string, client mupb.ResourceProviderClient) *Provider {
	return &Provider{cfg: Config{Name: name}, client: client}
}

// GetPluginInfo implements provider.Provider: the protocol cannot be asked,
// so the version is the one the plugin's file name gave, if any.
func (p *Provider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Name: p.cfg.Name, Version: p.cfg.Version}, nil
}

// GetSchema implements provider.Provider: the protocol has no schema.
func (p *Provider) GetSchema(context.Context, provider.GetSchemaRequest) (provider.GetSchemaResponse, error) {
	return provider.GetSchemaResponse{Schema: &schema.Schema{Name: p.cfg.Name, Version: p.cfg.Version}}, nil
}

// CheckConfig implements provider.Provider: configuration is taken as
// given (the protocol has no way to send it).
func (p *Provider) CheckConfig(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: req.News}, nil
}

// DiffConfig implements provider.Provider: the engine compares.
func (p *Provider) DiffConfig(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

// Configure implements provider.Provider. The protocol has no
// configuration; secrets are sent as their values.
func (p *Provider) Configure(context.Context, provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	return provider.ConfigureResponse{}, nil
}

// Check implements provider.Provider: inputs are taken as given.
func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: req.News}, nil
}

// Diff implements provider.Provider: the engine compares old and new
// inputs itself, and any change is an update, never a replacement.
func (p *Provider) Diff(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

// Create implements provider.Provider. The outputs are the inputs: the
// protocol returns only the new ID.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if req.Preview {
		return provider.CreateResponse{Outputs: req.Inputs}, nil
	}
	props, err := toStruct(req.Inputs)
	if err != nil {
		return provider.CreateResponse{}, p.codecError("Create", req.URN, err)
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	resp, err := p.client.Create(ctx, &mupb.CreateRequest{Type: req.URN.Type(), Properties: props})
	if err != nil {
		return provider.CreateResponse{}, p.callError(ctx, "Create", req.URN, err)
	}
	if resp.GetId() == "" {
		return provider.CreateResponse{}, &provider.InitError{Outputs: req.Inputs,
			Reasons: []string{fmt.Sprintf("provider %s answered Create of %s without an ID", p.cfg.Name, req.URN)}}
	}
	return provider.CreateResponse{ID: resp.GetId(), Outputs: req.Inputs}, nil
}

// Read implements provider.Provider. A NotFound answer means the resource
// is gone. The inputs read back are the recorded input properties as the
// plugin now sees them (all of what it read, when importing).
func (p *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	resp, err := p.client.Read(ctx, &mupb.ReadRequest{Id: req.ID, Type: req.URN.Type()})
	if status.Code(err) == codes.NotFound {
		return provider.ReadResponse{}, nil
	}
	if err != nil {
		return provider.ReadResponse{}, p.callError(ctx, "Read", req.URN, err)
	}
	outs, err := fromStruct(resp.GetProperties())
	if err != nil {
		return provider.ReadResponse{}, p.codecError("Read", req.URN, err)
	}
	inputs := outs.Copy()
	if len(req.Inputs) > 0 {
		inputs = resource.Object{}
		for k := range req.Inputs {
			if v, ok := outs[k]; ok {
				inputs[k] = v
			}
		}
	}
	return provider.ReadResponse{ID: req.ID, Inputs: inputs, Outputs: outs}, nil
}

// Update implements provider.Provider: it sends the properties that
// changed, and the outputs are the old ones with those applied.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	delta := changed(req.OldInputs, req.News)
	outs := overlay(req.OldOutputs, delta)
	if req.Preview || len(delta) == 0 {
		return provider.UpdateResponse{Outputs: outs}, nil
	}
	props, err := toStruct(delta)
	if err != nil {
		return provider.UpdateResponse{}, p.codecError("Update", req.URN, err)
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	_, err = p.client.Update(ctx, &mupb.UpdateRequest{Id: req.ID, Type: req.URN.Type(), Properties: props})
	if err != nil {
		return provider.UpdateResponse{}, p.callError(ctx, "Update", req.URN, err)
	}
	return provider.UpdateResponse{Outputs: outs}, nil
}

// Delete implements provider.Provider.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	if _, err := p.client.Delete(ctx, &mupb.DeleteRequest{Id: req.ID, Type: req.URN.Type()}); err != nil {
		return provider.DeleteResponse{}, p.callError(ctx, "Delete", req.URN, err)
	}
	return provider.DeleteResponse{}, nil
}

// Invoke implements provider.Provider: the protocol has no functions.
func (p *Provider) Invoke(_ context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	return provider.InvokeResponse{}, fmt.Errorf("provider %s speaks the Mu protocol, which has no functions: %s cannot be called", p.cfg.Name, req.Token)
}

// SignalCancellation implements provider.Provider: the protocol has no
// way to ask; outstanding calls end when their contexts do.
func (p *Provider) SignalCancellation(context.Context) error { return nil }

// Close implements provider.Provider: it closes the connection and stops
// the plugin (SIGTERM, then SIGKILL after Config.CloseGrace).
func (p *Provider) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	var err error
	var peak uint64
	if p.proc != nil {
		peak = grpcplugin.PeakRSS(p.proc.Proc)
	}
	if p.conn != nil {
		err = p.conn.Close()
	}
	if p.proc != nil {
		p.proc.Stop(p.cfg.closeGrace())
		p.proc.mem.record(peak)
	}
	return err
}

// withTimeout bounds a call by its resource timeout, with a quarter more.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d+d/4)
}

// codecError wraps a value that could not cross the wire.
func (p *Provider) codecError(method string, urn resource.URN, err error) error {
	what := "the properties cannot be sent"
	if method == "Read" {
		what = "the properties it read cannot be used"
	}
	return fmt.Errorf("provider %s: %s of %s: %s: %w", p.cfg.Name, method, urn, what, err)
}

// Construct implements provider.Provider: the protocol has no components.
func (p *Provider) Construct(_ context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	return provider.ConstructResponse{}, provider.NoComponents(p.cfg.Name, req.Type)
}

// Call implements provider.Provider: the protocol has no components.
func (p *Provider) Call(_ context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	return provider.CallResponse{}, provider.NoComponents(p.cfg.Name, req.Token)
}
