package tfplugin

import (
	"context"

	"github.com/plinth-iac/plinth/sdk/tfplugin6"
)

func (w *wire6) validateEphemeralConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateEphemeralResourceConfig(ctx, &tfplugin6.ValidateEphemeralResourceConfig_Request{TypeName: typeName, Config: to6Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}

func (w *wire6) openEphemeral(ctx context.Context, typeName string, config dynamicValue) (openEphemeralResponse, error) {
	resp, err := w.c.OpenEphemeralResource(ctx, &tfplugin6.OpenEphemeralResource_Request{
		TypeName: typeName, Config: to6Dynamic(config), ClientCapabilities: clientCaps6(),
	})
	if err != nil {
		return openEphemeralResponse{}, err
	}
	out := openEphemeralResponse{result: from6Dynamic(resp.Result), private: resp.Private,
		diags: from6Diagnostics(resp.Diagnostics), deferred: from6Deferred(resp.Deferred)}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w *wire6) renewEphemeral(ctx context.Context, typeName string, private []byte) (renewEphemeralResponse, error) {
	resp, err := w.c.RenewEphemeralResource(ctx, &tfplugin6.RenewEphemeralResource_Request{TypeName: typeName, Private: private})
	if err != nil {
		return renewEphemeralResponse{}, err
	}
	out := renewEphemeralResponse{private: resp.Private, diags: from6Diagnostics(resp.Diagnostics)}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w *wire6) closeEphemeral(ctx context.Context, typeName string, private []byte) ([]diagnostic, error) {
	resp, err := w.c.CloseEphemeralResource(ctx, &tfplugin6.CloseEphemeralResource_Request{TypeName: typeName, Private: private})
	if err != nil {
		return nil, err
	}
	return from6Diagnostics(resp.Diagnostics), nil
}
