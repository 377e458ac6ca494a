package mu_test

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/mu"
	"github.com/plinth-iac/plinth/internal/provider/mu/mupb"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// failing is a client whose every call fails with err.
type failing struct{ err error }

func (f failing) Create(context.Context, *mupb.CreateRequest, ...grpc.CallOption) (*mupb.CreateResponse, error) {
	return nil, f.err
}
func (f failing) Read(context.Context, *mupb.ReadRequest, ...grpc.CallOption) (*mupb.ReadResponse, error) {
	return nil, f.err
}
func (f failing) Update(context.Context, *mupb.UpdateRequest, ...grpc.CallOption) (*emptypb.Empty, error) {
	return nil, f.err
}
func (f failing) Delete(context.Context, *mupb.DeleteRequest, ...grpc.CallOption) (*emptypb.Empty, error) {
	return nil, f.err
}

// TestOutcome: an error status the provider answered means the call did
// nothing; a broken connection, a timeout or a cancellation leaves a
// Create, Update or Delete's outcome unknown. A Read answered NotFound is
// a resource gone, not an error.
func TestOutcome(t *testing.T) {
	const urn = resource.URN("urn:pulumi:dev::p::store:index:Bucket::b")
	tests := map[string]struct {
		code    codes.Code
		unknown bool
	}{
		"answered":          {codes.InvalidArgument, false},
		"answered internal": {codes.Internal, false},
		"connection broke":  {codes.Unavailable, true},
		"timed out":         {codes.DeadlineExceeded, true},
		"cancelled":         {codes.Canceled, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := mu.New("store", failing{status.Error(tc.code, "boom")})
			ctx := context.Background()
			_, cerr := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: resource.Object{"a": resource.NewString("x")}})
			_, uerr := p.Update(ctx, provider.UpdateRequest{URN: urn, ID: "r1", News: resource.Object{"a": resource.NewString("y")}})
			_, derr := p.Delete(ctx, provider.DeleteRequest{URN: urn, ID: "r1"})
			for call, err := range map[string]error{"Create": cerr, "Update": uerr, "Delete": derr} {
				if err == nil || provider.IsOutcomeUnknown(err) != tc.unknown {
					t.Errorf("%s: %v: outcome unknown %v, want %v", call, err, provider.IsOutcomeUnknown(err), tc.unknown)
				}
			}
			_, rerr := p.Read(ctx, provider.ReadRequest{URN: urn, ID: "r1"})
			if rerr == nil || errors.Is(rerr, provider.ErrOutcomeUnknown) {
				t.Errorf("Read: %v, want an error that is not outcome-unknown", rerr)
			}
		})
	}
	resp, err := mu.New("store", failing{status.Error(codes.NotFound, "gone")}).Read(context.Background(), provider.ReadRequest{URN: urn, ID: "r1"})
	if err != nil || resp.ID != "" {
		t.Errorf("Read answered NotFound: %+v, %v; want an empty ID (gone) and no error", resp, err)
	}
}
