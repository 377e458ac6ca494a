package provider

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/plinth-iac/plinth/internal/schema"
)

// Fake is a Provider whose behaviour is set per method by function fields,
// for tests. A nil field gives a plain default: Check and CheckConfig accept
// the news, Diff and DiffConfig answer DiffUnknown (so the engine compares
// inputs), Create returns a fresh ID with the inputs as outputs, Read returns
// the recorded state, Update returns the news as outputs, Construct and
// Call answer ErrNoComponents, and the rest succeed.
type Fake struct {
	GetPluginInfoF      func(ctx context.Context) (PluginInfo, error)
	GetSchemaF          func(ctx context.Context, req GetSchemaRequest) (GetSchemaResponse, error)
	CheckConfigF        func(ctx context.Context, req CheckRequest) (CheckResponse, error)
	DiffConfigF         func(ctx context.Context, req DiffRequest) (DiffResponse, error)
	ConfigureF          func(ctx context.Context, req ConfigureRequest) (ConfigureResponse, error)
	CheckF              func(ctx context.Context, req CheckRequest) (CheckResponse, error)
	DiffF               func(ctx context.Context, req DiffRequest) (DiffResponse, error)
	CreateF             func(ctx context.Context, req CreateRequest) (CreateResponse, error)
	ReadF               func(ctx context.Context, req ReadRequest) (ReadResponse, error)
	UpdateF             func(ctx context.Context, req UpdateRequest) (UpdateResponse, error)
	DeleteF             func(ctx context.Context, req DeleteRequest) (DeleteResponse, error)
	InvokeF             func(ctx context.Context, req InvokeRequest) (InvokeResponse, error)
	ConstructF          func(ctx context.Context, req ConstructRequest) (ConstructResponse, error)
	CallF               func(ctx context.Context, req CallRequest) (CallResponse, error)
	SignalCancellationF func(ctx context.Context) error
	CloseF              func() error

	OpenEphemeralF  func(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error)
	RenewEphemeralF func(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error)
	CloseEphemeralF func(ctx context.Context, req CloseEphemeralRequest) error

	ids atomic.Int64
}

var _ Provider = (*Fake)(nil)

// GetPluginInfo implements Provider.
func (f *Fake) GetPluginInfo(ctx context.Context) (PluginInfo, error) {
	if f.GetPluginInfoF != nil {
		return f.GetPluginInfoF(ctx)
	}
	return PluginInfo{Name: "fake", Version: "1.0.0"}, nil
}

// GetSchema implements Provider.
func (f *Fake) GetSchema(ctx context.Context, req GetSchemaRequest) (GetSchemaResponse, error) {
	if f.GetSchemaF != nil {
		return f.GetSchemaF(ctx, req)
	}
	return GetSchemaResponse{Schema: &schema.Schema{Name: "fake"}}, nil
}

// CheckConfig implements Provider.
func (f *Fake) CheckConfig(ctx context.Context, req CheckRequest) (CheckResponse, error) {
	if f.CheckConfigF != nil {
		return f.CheckConfigF(ctx, req)
	}
	return CheckResponse{Inputs: req.News}, nil
}

// DiffConfig implements Provider.
func (f *Fake) DiffConfig(ctx context.Context, req DiffRequest) (DiffResponse, error) {
	if f.DiffConfigF != nil {
		return f.DiffConfigF(ctx, req)
	}
	return DiffResponse{Changes: DiffUnknown}, nil
}

// Configure implements Provider.
func (f *Fake) Configure(ctx context.Context, req ConfigureRequest) (ConfigureResponse, error) {
	if f.ConfigureF != nil {
		return f.ConfigureF(ctx, req)
	}
	return ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
}

// Check implements Provider.
func (f *Fake) Check(ctx context.Context, req CheckRequest) (CheckResponse, error) {
	if f.CheckF != nil {
		return f.CheckF(ctx, req)
	}
	return CheckResponse{Inputs: req.News}, nil
}

// Diff implements Provider.
func (f *Fake) Diff(ctx context.Context, req DiffRequest) (DiffResponse, error) {
	if f.DiffF != nil {
		return f.DiffF(ctx, req)
	}
	return DiffResponse{Changes: DiffUnknown}, nil
}

// Create implements Provider.
func (f *Fake) Create(ctx context.Context, req CreateRequest) (CreateResponse, error) {
	if f.CreateF != nil {
		return f.CreateF(ctx, req)
	}
	id := ""
	if !req.Preview {
		id = fmt.Sprintf("id-%d", f.ids.Add(1))
	}
	return CreateResponse{ID: id, Outputs: req.Inputs}, nil
}

// Read implements Provider.
func (f *Fake) Read(ctx context.Context, req ReadRequest) (ReadResponse, error) {
	if f.ReadF != nil {
		return f.ReadF(ctx, req)
	}
	return ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.State, Private: req.Private}, nil
}

// Update implements Provider.
func (f *Fake) Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error) {
	if f.UpdateF != nil {
		return f.UpdateF(ctx, req)
	}
	return UpdateResponse{Outputs: req.News, Private: req.Private}, nil
}

// Delete implements Provider.
func (f *Fake) Delete(ctx context.Context, req DeleteRequest) (DeleteResponse, error) {
	if f.DeleteF != nil {
		return f.DeleteF(ctx, req)
	}
	return DeleteResponse{}, nil
}

// Invoke implements Provider.
func (f *Fake) Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	if f.InvokeF != nil {
		return f.InvokeF(ctx, req)
	}
	return InvokeResponse{Return: req.Args}, nil
}

// Construct implements Provider: without ConstructF the fake has no
// components.
func (f *Fake) Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error) {
	if f.ConstructF != nil {
		return f.ConstructF(ctx, req)
	}
	return ConstructResponse{}, NoComponents("fake", req.Type)
}

// Call implements Provider: without CallF the fake has no components.
func (f *Fake) Call(ctx context.Context, req CallRequest) (CallResponse, error) {
	if f.CallF != nil {
		return f.CallF(ctx, req)
	}
	return CallResponse{}, NoComponents("fake", req.Token)
}

// SignalCancellation implements Provider.
func (f *Fake) SignalCancellation(ctx context.Context) error {
	if f.SignalCancellationF != nil {
		return f.SignalCancellationF(ctx)
	}
	return nil
}

// Close implements Provider.
func (f *Fake) Close() error {
	if f.CloseF != nil {
		return f.CloseF()
	}
	return nil
}
