package pulumiserve

import (
	"context"
	"fmt"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Construct builds a component: it dials the engine's resource monitor,
// registers the component (under the parent it is given), runs the
// author's Component with a context that registers children through the
// monitor, records the component's outputs and answers with its URN and
// outputs.
func (s *Server) Construct(ctx context.Context, req *pb.ConstructRequest) (*pb.ConstructResponse, error) {
	ctor, ok := s.p.(provider.Constructor)
	if !ok || !s.hasComponents(ctx) {
		return nil, status.Errorf(codes.Unimplemented, "this provider implements no component resources, so it cannot construct %s", req.GetType())
	}
	inputs, err := decode(req.GetInputs(), "component inputs")
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(req.GetMonitorEndpoint(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "connecting to the engine's resource monitor at %q: %v", req.GetMonitorEndpoint(), err)
	}
	defer conn.Close()
	cc := &componentContext{mon: pb.NewResourceMonitorClient(conn), req: req, wire: s.send(true)}
	if err := cc.registerSelf(ctx, inputs); err != nil {
		return nil, err
	}
	resp, err := ctor.Construct(ctx, provider.ConstructRequest{Type: req.GetType(), Name: req.GetName(), Inputs: inputs, Context: cc})
	if err != nil {
		return nil, s.status(err)
	}
	outs, err := s.encode(resp.Outputs, req.GetDryRun(), "component outputs")
	if err != nil {
		return nil, err
	}
	if _, err := cc.mon.RegisterResourceOutputs(ctx, &pb.RegisterResourceOutputsRequest{Urn: string(cc.urn), Outputs: outs}); err != nil {
		return nil, status.Errorf(status.Code(err), "recording the outputs of component %s: %v", cc.urn, status.Convert(err).Message())
	}
	return &pb.ConstructResponse{Urn: string(cc.urn), State: outs}, nil
}

// hasComponents reports whether the provider's schema lists a component.
func (s *Server) hasComponents(ctx context.Context) bool {
	sch, err := s.getSchema(ctx)
	if err != nil {
		return true // let Construct say what is wrong
	}
	for _, r := range sch.Resources {
		if r.IsComponent {
			return true
		}
	}
	return false
}

// componentContext registers a component's children with the engine's
// resource monitor.
type componentContext struct {
	mon  pb.ResourceMonitorClient
	req  *pb.ConstructRequest
	wire pulumiwire.Options
	urn  resource.URN
}

var _ provider.ComponentContext = (*componentContext)(nil)

func (c *componentContext) URN() resource.URN { return c.urn }
func (c *componentContext) DryRun() bool      { return c.req.GetDryRun() }

// registerSelf registers the component resource itself, with the options
// the program gave it.
func (c *componentContext) registerSelf(ctx context.Context, inputs resource.Object) error {
	obj, err := pulumiwire.EncodeObject(inputs, c.wire)
	if err != nil {
		return internal("encoding the inputs of component %s: %v", c.req.GetName(), err)
	}
	r := c.req
	resp, err := c.mon.RegisterResource(ctx, &pb.RegisterResourceRequest{
		Type: r.GetType(), Name: r.GetName(), Parent: r.GetParent(), Custom: false, Object: obj,
		Dependencies: r.GetDependencies(), Protect: r.Protect, Providers: r.GetProviders(),
		Aliases: r.GetAliases(), AcceptSecrets: true, AcceptResources: true,
		RetainOnDelete: r.RetainOnDelete, DeletedWith: r.GetDeletedWith(),
	})
	if err != nil {
		return status.Errorf(status.Code(err), "registering component %s %s: %v", r.GetType(), r.GetName(), status.Convert(err).Message())
	}
	c.urn = resource.URN(resp.GetUrn())
	return nil
}

// Register implements provider.ComponentContext.
func (c *componentContext) Register(ctx context.Context, typ, name string, inputs resource.Object, opts ...provider.RegisterOption) (provider.Registered, error) {
	o := provider.ApplyRegisterOptions(opts)
	obj, err := pulumiwire.EncodeObject(inputs, c.wire)
	if err != nil {
		return provider.Registered{}, fmt.Errorf("encoding the inputs of %s %s: %w", typ, name, err)
	}
	deps := make([]string, len(o.DependsOn))
	for i, u := range o.DependsOn {
		deps[i] = string(u)
	}
	resp, err := c.mon.RegisterResource(ctx, &pb.RegisterResourceRequest{
		Type: typ, Name: name, Parent: string(c.urn), Custom: true, Object: obj,
		Dependencies: deps, Protect: &o.Protect, DeleteBeforeReplace: o.DeleteBeforeReplace,
		ReplaceOnChanges: o.ReplaceOnChanges, IgnoreChanges: o.IgnoreChanges, RetainOnDelete: &o.RetainOnDelete,
		Providers: c.req.GetProviders(), AcceptSecrets: true, AcceptResources: true,
	})
	if err != nil {
		return provider.Registered{}, fmt.Errorf("registering %s %s under %s: %s", typ, name, c.urn, status.Convert(err).Message())
	}
	outs, err := pulumiwire.DecodeObject(resp.GetObject(), pulumiwire.Full())
	if err != nil {
		return provider.Registered{}, fmt.Errorf("decoding the outputs of %s: %w", resp.GetUrn(), err)
	}
	return provider.Registered{URN: resource.URN(resp.GetUrn()), ID: resp.GetId(), Outputs: outs}, nil
}

// Call calls a method of a component: the component arrives in the
// arguments under "__self__".
func (s *Server) Call(ctx context.Context, req *pb.CallRequest) (*pb.CallResponse, error) {
	caller, ok := s.p.(provider.Caller)
	if !ok {
		return nil, status.Errorf(codes.Unimplemented, "this provider implements no component methods, so it cannot call %s", req.GetTok())
	}
	args, err := decode(req.GetArgs(), "method arguments")
	if err != nil {
		return nil, err
	}
	self := args["__self__"]
	delete(args, "__self__")
	resp, err := caller.Call(ctx, provider.CallRequest{Token: req.GetTok(), Self: self, Args: args})
	if err != nil {
		return nil, s.status(err)
	}
	ret, err := s.encode(resp.Return, req.GetDryRun(), "method result")
	if err != nil {
		return nil, err
	}
	return &pb.CallResponse{Return: ret}, nil
}
