package tfplugin

import (
	"context"

	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

func (w *wire5) validateEphemeralConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	resp, err := w.c.ValidateEphemeralResourceConfig(ctx, &tfplugin5.ValidateEphemeralResourceConfig_Request{TypeName: typeName, Config: to5Dynamic(config)})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}

func (w *wire5) openEphemeral(ctx context.Context, typeName string, config dynamicValue) (openEphemeralResponse, error) {
	resp, err := w.c.OpenEphemeralResource(ctx, &tfplugin5.OpenEphemeralResource_Request{
		TypeName: typeName, Config: to5Dynamic(config), ClientCapabilities: clientCaps5(),
	})
	if err != nil {
		return openEphemeralResponse{}, err
	}
	out := openEphemeralResponse{result: from5Dynamic(resp.Result), private: resp.Private,
		diags: from5Diagnostics(resp.Diagnostics), deferred: from5Deferred(resp.Deferred)}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w *wire5) renewEphemeral(ctx context.Context, typeName string, private []byte) (renewEphemeralResponse, error) {
	resp, err := w.c.RenewEphemeralResource(ctx, &tfplugin5.RenewEphemeralResource_Request{TypeName: typeName, Private: private})
	if err != nil {
		return renewEphemeralResponse{}, err
	}
	out := renewEphemeralResponse{private: resp.Private, diags: from5Diagnostics(resp.Diagnostics)}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w *wire5) closeEphemeral(ctx context.Context, typeName string, private []byte) ([]diagnostic, error) {
	resp, err := w.c.CloseEphemeralResource(ctx, &tfplugin5.CloseEphemeralResource_Request{TypeName: typeName, Private: private})
	if err != nil {
		return nil, err
	}
	return from5Diagnostics(resp.Diagnostics), nil
}
