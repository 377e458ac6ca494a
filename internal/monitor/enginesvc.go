package monitor

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// engineService implements pulumirpc.EngineServer: the program's logs and
// its root resource.
type engineService struct {
	pulumirpc.UnimplementedEngineServer
	s *Server
}

var _ pulumirpc.EngineServer = (*engineService)(nil)

// Log implements pulumirpc.EngineServer. Debug messages are dropped;
// errors are kept for the operation's error (see Server.LoggedErrors).
func (e *engineService) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	var sev engine.Severity
	switch req.GetSeverity() {
	case pulumirpc.LogSeverity_DEBUG:
		return &emptypb.Empty{}, nil
	case pulumirpc.LogSeverity_INFO:
		sev = engine.SeverityInfo
	case pulumirpc.LogSeverity_WARNING:
		sev = engine.SeverityWarning
	default:
		sev = engine.SeverityError
	}
	urn := resource.URN(req.GetUrn())
	if urn == e.s.rootURN() {
		urn = ""
	}
	e.s.log(Log{Severity: sev, URN: urn, Message: req.GetMessage()})
	return &emptypb.Empty{}, nil
}

// GetRootResource implements pulumirpc.EngineServer.
func (e *engineService) GetRootResource(context.Context, *pulumirpc.GetRootResourceRequest) (*pulumirpc.GetRootResourceResponse, error) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return &pulumirpc.GetRootResourceResponse{Urn: e.s.rootSet}, nil
}

// SetRootResource implements pulumirpc.EngineServer.
func (e *engineService) SetRootResource(_ context.Context, req *pulumirpc.SetRootResourceRequest) (*pulumirpc.SetRootResourceResponse, error) {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	e.s.rootSet = req.GetUrn()
	return &pulumirpc.SetRootResourceResponse{}, nil
}
