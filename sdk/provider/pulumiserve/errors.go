package pulumiserve

import (
	"context"
	"errors"
	"fmt"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
)

// status turns a provider error into a gRPC status the engine reads: a
// partly created resource carries ErrorResourceInitFailed with its ID and
// outputs, so the engine records it; a panic is Internal (the resource's
// state is unknown); cancellation and timeouts keep their codes.
func (s *Server) status(err error) error {
	var ie *provider.InitError
	if errors.As(err, &ie) {
		return s.initFailed(ie)
	}
	var pe *provider.PanicError
	switch {
	case errors.As(err, &pe):
		return status.Error(codes.Internal, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, provider.ErrNotConfigured):
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return status.Error(codes.Unknown, err.Error())
}

func (s *Server) initFailed(ie *provider.InitError) error {
	outs, err := pulumiwire.EncodeObject(ie.Outputs, s.send(false))
	if err != nil {
		return internal("%v (and its outputs could not be encoded: %v)", ie, err)
	}
	st, err := status.New(codes.Unknown, ie.Error()).WithDetails(&pb.ErrorResourceInitFailed{
		Id: ie.ID, Properties: outs, Reasons: ie.Reasons,
	})
	if err != nil {
		return internal("%v", ie)
	}
	return st.Err()
}

// invalid reports a request that cannot be read.
func invalid(format string, args ...any) error {
	return status.Error(codes.InvalidArgument, fmt.Sprintf(format, args...))
}

// internal reports a response that cannot be written.
func internal(format string, args ...any) error {
	return status.Error(codes.Internal, fmt.Sprintf(format, args...))
}
