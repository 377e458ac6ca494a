package provider

import (
	"context"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Ephemeral is implemented by providers with ephemeral resources
// (Terraform's ephemeral blocks): values opened for one run, renewed
// while it lasts and closed at its end, never written to state or plan.
// It is optional: a provider without it has no ephemeral resources.
type Ephemeral interface {
	OpenEphemeral(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error)
	RenewEphemeral(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error)
	CloseEphemeral(ctx context.Context, req CloseEphemeralRequest) error
}

// OpenEphemeralRequest opens an ephemeral resource; Token names its type
// as for Invoke (random:index:random_password).
type OpenEphemeralRequest struct {
	Token  string
	Config resource.Object
}

// OpenEphemeralResponse is an opened ephemeral resource: its value,
// the provider's private handle for Renew and Close, and when it must be
// renewed (zero: never). Failures are rejected arguments.
type OpenEphemeralResponse struct {
	Result   resource.Object
	Private  []byte
	RenewAt  time.Time
	Failures []CheckFailure
}

// RenewEphemeralRequest renews an open ephemeral resource.
type RenewEphemeralRequest struct {
	Token   string
	Private []byte
}

// RenewEphemeralResponse carries the new handle and renewal time.
type RenewEphemeralResponse struct {
	Private []byte
	RenewAt time.Time
}

// CloseEphemeralRequest closes an open ephemeral resource.
type CloseEphemeralRequest struct {
	Token   string
	Private []byte
}

var _ Ephemeral = (*Fake)(nil)

// OpenEphemeral implements Ephemeral: OpenEphemeralF, or the config as
// the result.
func (f *Fake) OpenEphemeral(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error) {
	if f.OpenEphemeralF != nil {
		return f.OpenEphemeralF(ctx, req)
	}
	return OpenEphemeralResponse{Result: req.Config}, nil
}

// RenewEphemeral implements Ephemeral: RenewEphemeralF, or nothing.
func (f *Fake) RenewEphemeral(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error) {
	if f.RenewEphemeralF != nil {
		return f.RenewEphemeralF(ctx, req)
	}
	return RenewEphemeralResponse{Private: req.Private}, nil
}

// CloseEphemeral implements Ephemeral: CloseEphemeralF, or nothing.
func (f *Fake) CloseEphemeral(ctx context.Context, req CloseEphemeralRequest) error {
	if f.CloseEphemeralF != nil {
		return f.CloseEphemeralF(ctx, req)
	}
	return nil
}
