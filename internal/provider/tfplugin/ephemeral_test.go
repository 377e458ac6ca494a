package tfplugin

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// fake_token, the v5 fake's ephemeral resource: token is "tok-" + name,
// the private handle starts as "p1" and each renewal appends "+"; closing
// with a handle the fake never gave is an error.
var tokenType = cty.Object(map[string]cty.Type{"name": cty.String, "token": cty.String})

func (f *fake5) ValidateEphemeralResourceConfig(context.Context, *tfplugin5.ValidateEphemeralResourceConfig_Request) (*tfplugin5.ValidateEphemeralResourceConfig_Response, error) {
	return &tfplugin5.ValidateEphemeralResourceConfig_Response{}, nil
}

func (f *fake5) OpenEphemeralResource(_ context.Context, req *tfplugin5.OpenEphemeralResource_Request) (*tfplugin5.OpenEphemeralResource_Response, error) {
	cfg, err := ctymsgpack.Unmarshal(req.Config.Msgpack, tokenType)
	if err != nil {
		return nil, err
	}
	out := cty.ObjectVal(map[string]cty.Value{"name": cfg.GetAttr("name"), "token": cty.StringVal("tok-" + cfg.GetAttr("name").AsString())})
	b, _ := ctymsgpack.Marshal(out, tokenType)
	return &tfplugin5.OpenEphemeralResource_Response{Result: &tfplugin5.DynamicValue{Msgpack: b}, Private: []byte("p1"),
		RenewAt: timestamppb.New(time.Unix(2000000000, 0))}, nil
}

func (f *fake5) RenewEphemeralResource(_ context.Context, req *tfplugin5.RenewEphemeralResource_Request) (*tfplugin5.RenewEphemeralResource_Response, error) {
	return &tfplugin5.RenewEphemeralResource_Response{Private: append(req.Private, '+')}, nil
}

func (f *fake5) CloseEphemeralResource(_ context.Context, req *tfplugin5.CloseEphemeralResource_Request) (*tfplugin5.CloseEphemeralResource_Response, error) {
	if !strings.HasPrefix(string(req.Private), "p1") {
		return &tfplugin5.CloseEphemeralResource_Response{Diagnostics: []*tfplugin5.Diagnostic{{
			Severity: tfplugin5.Diagnostic_ERROR, Summary: "unknown handle " + string(req.Private)}}}, nil
	}
	return &tfplugin5.CloseEphemeralResource_Response{}, nil
}

// TestEphemeralProtocol5: OpenEphemeral decodes the result and the
// renewal time, Renew and Close pass the private handle through, and a
// provider's Close diagnostic is an error.
func TestEphemeralProtocol5(t *testing.T) {
	p := startFake(t, modeInconsistent)
	ctx := context.Background()
	open, err := p.OpenEphemeral(ctx, provider.OpenEphemeralRequest{Token: "fake:index:fake_token", Config: obj(map[string]any{"name": "db"})})
	mustOK(t, "OpenEphemeral", err)
	if got := open.Result["token"].Str(); got != "tok-db" {
		t.Errorf("token = %q, want tok-db", got)
	}
	if string(open.Private) != "p1" || open.RenewAt.Unix() != 2000000000 {
		t.Errorf("private %q, renew at %v: want p1 and the provider's time", open.Private, open.RenewAt)
	}
	renewed, err := p.RenewEphemeral(ctx, provider.RenewEphemeralRequest{Token: "fake:index:fake_token", Private: open.Private})
	mustOK(t, "RenewEphemeral", err)
	if string(renewed.Private) != "p1+" || !renewed.RenewAt.IsZero() {
		t.Errorf("renewed private %q, renew at %v: want p1+ and none", renewed.Private, renewed.RenewAt)
	}
	mustOK(t, "CloseEphemeral", p.CloseEphemeral(ctx, provider.CloseEphemeralRequest{Token: "fake:index:fake_token", Private: renewed.Private}))
	err = p.CloseEphemeral(ctx, provider.CloseEphemeralRequest{Token: "fake:index:fake_token", Private: []byte("bogus")})
	if err == nil || !strings.Contains(err.Error(), "unknown handle bogus") {
		t.Errorf("closing an unknown handle: error %v, want the provider's diagnostic", err)
	}
	_, err = p.OpenEphemeral(ctx, provider.OpenEphemeralRequest{Token: "fake:index:fake_nope"})
	if err == nil || !strings.Contains(err.Error(), "has no ephemeral resource fake_nope") {
		t.Errorf("opening an unknown type: error %v", err)
	}
}
