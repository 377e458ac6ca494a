package provider

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// StateUpgrader is implemented by a resource type whose recorded state has
// changed shape between versions of the provider. SchemaVersion is the
// version of the current inputs and outputs structs (0 when the type never
// changed; declare 1 on the first change). UpgradeState converts state
// recorded by an older version into the current shape. Its input is
// untyped, since it follows an older struct: property names as that
// version wrote them.
type StateUpgrader interface {
	SchemaVersion() int64
	UpgradeState(ctx context.Context, op UpgradeStateOp) (UpgradeStateResult, error)
}

// UpgradeStateOp holds state recorded by schema version Version.
type UpgradeStateOp struct {
	URN     resource.URN
	ID      string
	Version int64
	State   resource.Object
}

// UpgradeStateResult carries the state in the current version's shape.
type UpgradeStateResult struct {
	State resource.Object
}

// UpgradeStateRequest asks a provider to bring a resource's recorded state
// (outputs) from schema version Version up to the current one.
type UpgradeStateRequest struct {
	URN     resource.URN
	ID      string
	Version int64
	State   resource.Object
}

// UpgradeStateResponse carries the upgraded state.
type UpgradeStateResponse struct {
	State resource.Object
}

// StateUpgradeProvider is the optional part of Provider that servers of
// versioned protocols (Terraform's) use: providers made by New implement
// it. A provider without it has no schema versions.
type StateUpgradeProvider interface {
	UpgradeState(ctx context.Context, req UpgradeStateRequest) (UpgradeStateResponse, error)
}

var _ StateUpgradeProvider = (*server)(nil)

// UpgradeState implements StateUpgradeProvider. State already at the
// current version is returned as it is; so is any state of a type without
// a StateUpgrader. It needs no configuration: a client may upgrade state
// before it configures the provider. A panic in the upgrader becomes a
// PanicError.
func (s *server) UpgradeState(ctx context.Context, req UpgradeStateRequest) (resp UpgradeStateResponse, err error) {
	h, err := s.handler(req.URN)
	if err != nil {
		return resp, err
	}
	current := h.schema().Version
	switch {
	case req.Version == current:
		return UpgradeStateResponse{State: req.State}, nil
	case req.Version > current:
		return resp, fmt.Errorf("the state of %s was written by schema version %d of %s, newer than this provider's %d; use a newer version of provider %s",
			req.URN, req.Version, req.URN.Type(), current, s.info.Name)
	}
	u, ok := h.upgrader()
	if !ok {
		return UpgradeStateResponse{State: req.State}, nil
	}
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic("UpgradeState", req.URN, &err)
	res, err := u.UpgradeState(ctx, UpgradeStateOp(req))
	if err != nil {
		return resp, fmt.Errorf("upgrading the state of %s from schema version %d to %d: %w", req.URN, req.Version, current, err)
	}
	return UpgradeStateResponse(res), nil
}
