package mu

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// CallError is a call to a plugin that failed. Its message names the
// provider, the call and the resource; a crash carries how the process
// ended and its last stderr lines.
type CallError = grpcplugin.CallError

// callError turns a gRPC error into a CallError. A broken connection waits
// briefly for the process to exit, so a crash is reported as one.
func (p *Provider) callError(ctx context.Context, method string, urn resource.URN, err error) error {
	e := grpcplugin.NewCallError(p.cfg.Name, method, urn, err)
	if p.closed.Load() {
		e.Closed = true
		return e
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e.Code = codes.DeadlineExceeded
	}
	grace := time.Duration(0)
	if e.Code == codes.Unavailable {
		grace = 5 * time.Second
	}
	if p.proc != nil && p.proc.HasExited(grace) {
		e.Crashed, e.Exit = true, p.proc.exitStatus()+"; "+p.proc.describeTail()
	}
	return e
}
