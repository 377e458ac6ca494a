package pulumirpc

import (
	"context"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Construct implements provider.Provider: it sends Construct with the
// monitor's address, so that the plugin registers the component and its
// children with the engine, and returns the component's URN and outputs.
func (p *Provider) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	urn := resource.URN(req.Type + "::" + req.Name)
	wreq, err := p.constructRequest(req)
	if err != nil {
		return provider.ConstructResponse{}, p.codecError("Construct", urn, "encoding the inputs", err)
	}
	resp, err := p.client.Construct(ctx, wreq)
	if err != nil {
		return provider.ConstructResponse{}, p.callError(ctx, "Construct", urn, 0, err)
	}
	outs, err := pulumiwire.DecodeObject(resp.GetState(), receiveOptions(req.Info.DryRun))
	if err != nil {
		return provider.ConstructResponse{}, p.codecError("Construct", resource.URN(resp.GetUrn()), "decoding the component's outputs", err)
	}
	deps := provider.Dependencies{}
	for k, d := range resp.GetStateDependencies() {
		deps[k] = toURNs(d.GetUrns())
	}
	return provider.ConstructResponse{URN: resource.URN(resp.GetUrn()), Outputs: outs, OutputDependencies: deps}, nil
}

func (p *Provider) constructRequest(req provider.ConstructRequest) (*pb.ConstructRequest, error) {
	ins, err := encodeOrEmpty(req.Inputs, p.sendOptions())
	if err != nil {
		return nil, err
	}
	deps := map[string]*pb.ConstructRequest_PropertyDependencies{}
	for k, urns := range req.InputDependencies {
		deps[k] = &pb.ConstructRequest_PropertyDependencies{Urns: fromURNs(urns)}
	}
	o, info := req.Options, req.Info
	w := &pb.ConstructRequest{
		Project: info.Project, Stack: info.Stack, Config: info.Config, ConfigSecretKeys: info.ConfigSecretKeys,
		DryRun: info.DryRun, Parallel: int32(info.Parallel), MonitorEndpoint: info.MonitorAddress,
		Type: req.Type, Name: req.Name, Parent: string(req.Parent),
		Inputs: ins, InputDependencies: deps, AcceptsOutputValues: true,
		Providers: o.Providers, Dependencies: fromURNs(o.DependsOn), Protect: &o.Protect,
		AdditionalSecretOutputs: o.AdditionalSecretOutputs, DeletedWith: string(o.DeletedWith),
		DeleteBeforeReplace: &o.DeleteBeforeReplace, IgnoreChanges: o.IgnoreChanges,
		ReplaceOnChanges: o.ReplaceOnChanges, RetainOnDelete: &o.RetainOnDelete,
	}
	for _, a := range o.Aliases {
		w.Aliases = append(w.Aliases, &pb.Alias{Alias: &pb.Alias_Urn{Urn: string(a)}})
	}
	if t := o.CustomTimeouts; t != (provider.CustomTimeouts{}) {
		w.CustomTimeouts = &pb.ConstructRequest_CustomTimeouts{Create: durString(t.Create), Update: durString(t.Update), Delete: durString(t.Delete)}
	}
	return w, nil
}

// Call implements provider.Provider: it sends Call with the monitor's
// address and returns the method's result.
func (p *Provider) Call(ctx context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	args, err := encodeOrEmpty(req.Args, p.sendOptions())
	if err != nil {
		return provider.CallResponse{}, p.codecError("Call", "", "encoding the arguments of "+req.Token, err)
	}
	deps := map[string]*pb.CallRequest_ArgumentDependencies{}
	for k, urns := range req.ArgDependencies {
		deps[k] = &pb.CallRequest_ArgumentDependencies{Urns: fromURNs(urns)}
	}
	info := req.Info
	resp, err := p.client.Call(ctx, &pb.CallRequest{
		Tok: req.Token, Args: args, ArgDependencies: deps, AcceptsOutputValues: true,
		Project: info.Project, Stack: info.Stack, Config: info.Config, ConfigSecretKeys: info.ConfigSecretKeys,
		DryRun: info.DryRun, Parallel: int32(info.Parallel), MonitorEndpoint: info.MonitorAddress,
	})
	if err != nil {
		return provider.CallResponse{}, p.callError(ctx, "Call", "", 0, err)
	}
	return p.callResponse(req, resp)
}

func (p *Provider) callResponse(req provider.CallRequest, resp *pb.CallResponse) (provider.CallResponse, error) {
	ret, err := pulumiwire.DecodeObject(resp.GetReturn(), receiveOptions(req.Info.DryRun))
	if err != nil {
		return provider.CallResponse{}, p.codecError("Call", "", "decoding the result of "+req.Token, err)
	}
	deps := provider.Dependencies{}
	for k, d := range resp.GetReturnDependencies() {
		deps[k] = toURNs(d.GetUrns())
	}
	var failures []provider.CheckFailure
	for _, f := range pulumiwire.DecodeCheckFailures(resp.GetFailures()) {
		failures = append(failures, provider.CheckFailure(f))
	}
	return provider.CallResponse{Return: ret, ReturnDependencies: deps, Failures: failures}, nil
}

func fromURNs(urns []resource.URN) []string {
	out := make([]string, len(urns))
	for i, u := range urns {
		out[i] = string(u)
	}
	return out
}

func toURNs(urns []string) []resource.URN {
	out := make([]resource.URN, len(urns))
	for i, u := range urns {
		out[i] = resource.URN(u)
	}
	return out
}

// durString is a timeout as the protocol sends it, empty for the default.
func durString(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}
