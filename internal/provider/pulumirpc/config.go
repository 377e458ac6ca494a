package pulumirpc

import (
	"context"
	"encoding/json"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// CheckConfig implements provider.Provider. A plugin that does not
// implement it gets its configuration as given.
func (p *Provider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	wreq, err := p.checkRequest(req, p.configOptions())
	if err != nil {
		return provider.CheckResponse{}, p.codecError("CheckConfig", req.URN, "encoding the configuration", err)
	}
	resp, err := p.client.CheckConfig(ctx, wreq, leaveStructs)
	if status.Code(err) == codes.Unimplemented {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	if err != nil {
		return provider.CheckResponse{}, p.callError(ctx, "CheckConfig", req.URN, 0, err)
	}
	return p.checkResponse("CheckConfig", req, resp)
}

// DiffConfig implements provider.Provider. A plugin that does not
// implement it answers "unknown", so the engine compares configurations.
func (p *Provider) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	wreq, err := p.diffRequest(req, p.configOptions())
	if err != nil {
		return provider.DiffResponse{}, p.codecError("DiffConfig", req.URN, "encoding the configuration", err)
	}
	resp, err := p.client.DiffConfig(ctx, wreq)
	if status.Code(err) == codes.Unimplemented {
		return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
	}
	if err != nil {
		return provider.DiffResponse{}, p.callError(ctx, "DiffConfig", req.URN, 0, err)
	}
	return diffResponse(resp), nil
}

// Configure implements provider.Provider. Configuration that holds unknowns
// (in a preview) is not sent: the plugin stays unconfigured and resource
// calls answer conservatively, as the Pulumi engine does. The plugin gets
// both the structured args and the legacy string variables.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	if resource.NewObject(req.Inputs).ContainsUnknowns() {
		f := p.features()
		f.configured, f.unknown = true, true
		p.setFeatures(f)
		return provider.ConfigureResponse{}, nil
	}
	args, err := pulumiwire.EncodeObject(req.Inputs, p.configOptions())
	if err != nil {
		return provider.ConfigureResponse{}, p.codecError("Configure", "", "encoding the configuration", err)
	}
	vars, err := p.variables(req.Inputs)
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	resp, err := p.client.Configure(ctx, &pb.ConfigureRequest{
		//lint:ignore SA1019 providers written before Args read their configuration only from Variables; the guide says to send both
		Variables: vars, Args: args,
		AcceptSecrets: true, AcceptResources: true,
		SendsOldInputs: true, SendsOldInputsToDelete: true,
	})
	if err != nil {
		return provider.ConfigureResponse{}, p.configureError(ctx, err)
	}
	f := p.negotiate(resp)
	return provider.ConfigureResponse{AcceptSecrets: f.secrets, AcceptResources: f.resources, SupportsPreview: f.preview}, nil
}

// negotiate records the features Configure reported; a plugin that
// handshook already said what it accepts.
func (p *Provider) negotiate(resp *pb.ConfigureResponse) features {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := &p.feat
	if !f.handshook {
		f.secrets, f.resources, f.outputs = resp.GetAcceptSecrets(), resp.GetAcceptResources(), resp.GetAcceptOutputs()
	}
	f.preview, f.configured, f.unknown = resp.GetSupportsPreview(), true, false
	return *f
}

// variables is the legacy form of the configuration: "<pkg>:config:<key>"
// to a string, JSON for anything but a string, secrets unwrapped.
func (p *Provider) variables(inputs resource.Object) (map[string]string, error) {
	vars := make(map[string]string, len(inputs))
	for k, v := range inputs {
		if k == "version" {
			continue
		}
		plain, _ := v.Unsecret()
		if plain.Kind() == resource.StringKind {
			vars[p.name+":config:"+k] = plain.Str()
			continue
		}
		b, err := json.Marshal(jsonable(plain))
		if err != nil {
			return nil, p.codecError("Configure", "", "encoding configuration key "+k+" as JSON", err)
		}
		vars[p.name+":config:"+k] = string(b)
	}
	return vars, nil
}

// jsonable turns a value into data encoding/json can write: references as
// their ID or URN, assets and archives as their path, URI or text.
func jsonable(v resource.Value) any {
	switch v.Kind() {
	case resource.ArrayKind:
		out := make([]any, len(v.Array()))
		for i, e := range v.Array() {
			out[i] = jsonable(e)
		}
		return out
	case resource.ObjectKind:
		out := make(map[string]any, len(v.Object()))
		for k, e := range v.Object() {
			out[k] = jsonable(e)
		}
		return out
	case resource.ReferenceKind:
		if r := v.Reference(); r.ID != nil {
			return r.ID.Str()
		}
		return string(v.Reference().URN)
	case resource.AssetKind, resource.ArchiveKind:
		return v.String()
	}
	return v.ToGo()
}
