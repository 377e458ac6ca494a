package monitor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// resourceMonitor implements pulumirpc.ResourceMonitorServer.
type resourceMonitor struct {
	pulumirpc.UnimplementedResourceMonitorServer
	s *Server
}

var _ pulumirpc.ResourceMonitorServer = (*resourceMonitor)(nil)

// features answers SupportsFeature for every feature a Pulumi SDK asks
// about. True means plinth honours the feature, or refuses it where the
// program uses it with an error that names plinth and the feature: an SDK
// told false throws "The Pulumi CLI does not support ... update the Pulumi
// CLI", which misdirects a plinth user. A feature not listed is answered
// false; the SDKs then do without it (invokeDependsOn: the SDK waits for
// the dependencies itself).
var features = map[string]bool{
	// Honoured.
	"secrets": true, "resourceReferences": true, "outputValues": true,
	"deletedWith": true, "aliasSpecs": true,
	"transforms": true, "invokeTransforms": true, // transform.go
	"resourceHooks": true, "errorHooks": true, // hooks.go
	// Refused where used, naming plinth: RegisterPackage, and the
	// replaceWith option of RegisterResource (refuseUnsupported).
	"parameterization": true, "replaceWith": true,
}

// SupportsFeature implements pulumirpc.ResourceMonitorServer.
func (m *resourceMonitor) SupportsFeature(_ context.Context, req *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return &pulumirpc.SupportsFeatureResponse{HasSupport: features[req.GetId()]}, nil
}

// RegisterResource implements pulumirpc.ResourceMonitorServer: it blocks
// until the resource's step is done, as the SDKs expect.
func (m *resourceMonitor) RegisterResource(ctx context.Context, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	s := m.s
	if req.GetType() == StackType && req.GetParent() == "" {
		return s.registerRoot(req)
	}
	urn := s.mon.URN(req.GetType(), req.GetName(), s.parent(req.GetParent()))
	req, err := s.transformResource(ctx, urn, req)
	if err != nil {
		return nil, s.transformFailed(err)
	}
	reg, err := s.registration(req, urn)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	res, err := engine.RegisterAndWait(ctx, s.mon, reg)
	if err != nil {
		s.markFailed()
		return nil, registrationFailed(ctx, err)
	}
	if res.ProviderRef != "" {
		s.addProvider(res.URN, res.ProviderRef)
	}
	return s.response(req, res)
}

// registerRoot answers the stack component's registration without the
// engine: plinth's stack is the root.
func (s *Server) registerRoot(req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	urn := resource.NewURN(s.cfg.Stack, s.cfg.Project, "", StackType, req.GetName())
	s.mu.Lock()
	s.root = urn
	s.mu.Unlock()
	return &pulumirpc.RegisterResourceResponse{Urn: string(urn), Object: nil}, nil
}

// response encodes a registration's result as the request asked.
func (s *Server) response(req *pulumirpc.RegisterResourceRequest, res engine.Registered) (*pulumirpc.RegisterResourceResponse, error) {
	outputs := withSecrets(res.Outputs, req.GetAdditionalSecretOutputs())
	obj, err := pulumiwire.EncodeObject(outputs, pulumiwire.Options{Secrets: req.GetAcceptSecrets(), Resources: req.GetAcceptResources(), ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "resource %s: encoding its outputs: %v", res.URN, err)
	}
	id := ""
	if res.ID.Kind() == resource.StringKind {
		id = res.ID.Str()
	}
	return &pulumirpc.RegisterResourceResponse{Urn: string(res.URN), Id: id, Object: obj}, nil
}

// RegisterResourceOutputs implements pulumirpc.ResourceMonitorServer; the
// stack component's outputs are the stack's.
func (m *resourceMonitor) RegisterResourceOutputs(_ context.Context, req *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	s := m.s
	outputs, err := pulumiwire.DecodeObject(req.GetOutputs(), pulumiwire.Full())
	if err != nil {
		err = &RequestError{"outputs of " + req.GetUrn(), fmt.Sprintf("the program sent a malformed value (%v)", err)}
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	if urn := resource.URN(req.GetUrn()); urn == s.rootURN() {
		s.mon.SetStackOutputs(withoutResourceMarks(outputs))
		return &emptypb.Empty{}, nil
	}
	if err := s.mon.RegisterOutputs(resource.URN(req.GetUrn()), outputs); err != nil {
		s.markFailed()
		return nil, status.Error(codes.Unknown, err.Error())
	}
	return &emptypb.Empty{}, nil
}

// Invoke implements pulumirpc.ResourceMonitorServer.
func (m *resourceMonitor) Invoke(ctx context.Context, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeResponse, error) {
	s := m.s
	if req.GetTok() != GetResourceToken {
		var err error
		if req, err = s.transformInvoke(ctx, req); err != nil {
			return nil, s.transformFailed(err)
		}
	}
	args, err := pulumiwire.DecodeObject(req.GetArgs(), pulumiwire.Full())
	if err != nil {
		err = &RequestError{"function " + req.GetTok(), fmt.Sprintf("the program sent a malformed argument (%v)", err)}
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	if req.GetTok() == GetResourceToken {
		return s.getResource(args, req)
	}
	ret, err := s.mon.Invoke(ctx, engine.InvokeRequest{Token: req.GetTok(), Args: args, Provider: s.providerRef(req.GetProvider()), Version: req.GetVersion()})
	var ie *engine.InvokeError
	if errors.As(err, &ie) {
		return &pulumirpc.ResourceInvokeResponse{Failures: checkFailures(ie.Failures)}, nil
	}
	if err != nil {
		return nil, status.Error(codes.Unknown, ctxErr(ctx, err).Error())
	}
	obj, err := pulumiwire.EncodeObject(ret, pulumiwire.Options{Secrets: true, Resources: req.GetAcceptResources(), ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "function %s: encoding its result: %v", req.GetTok(), err)
	}
	return &pulumirpc.ResourceInvokeResponse{Return: obj}, nil
}

// checkFailures converts failures of a function's or method's arguments.
func checkFailures(failures []provider.CheckFailure) []*pulumirpc.CheckFailure {
	fs := make([]*pulumirpc.CheckFailure, len(failures))
	for i, f := range failures {
		fs[i] = &pulumirpc.CheckFailure{Property: pulumiwire.FromPlinthPath(f.Property), Reason: f.Reason}
	}
	return fs
}

// unsupported refuses a request plinth does not serve: the operation
// fails with this error, whether or not the program catches it.
func (s *Server) unsupported(what, instead string) error {
	err := s.refuse(fmt.Errorf("%s is not supported by plinth; %s", what, instead))
	return status.Error(codes.Unimplemented, err.Error())
}

// Call implements pulumirpc.ResourceMonitorServer: a method of a
// component from a provider plugin, answered by the provider's Call.
func (m *resourceMonitor) Call(ctx context.Context, req *pulumirpc.ResourceCallRequest) (*pulumirpc.CallResponse, error) {
	s := m.s
	args, err := pulumiwire.DecodeObject(req.GetArgs(), pulumiwire.Full())
	if err != nil {
		err = &RequestError{"method " + req.GetTok(), fmt.Sprintf("the program sent a malformed argument (%v)", err)}
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	deps := map[string][]resource.URN{}
	for name, d := range req.GetArgDependencies() {
		deps[name] = s.urns(d.GetUrns())
	}
	ret, err := s.mon.Invoke(ctx, engine.InvokeRequest{Token: req.GetTok(), Args: args, Method: true, ArgDependencies: deps,
		Provider: s.providerRef(req.GetProvider()), Version: req.GetVersion()})
	var ie *engine.InvokeError
	if errors.As(err, &ie) {
		return &pulumirpc.CallResponse{Failures: checkFailures(ie.Failures)}, nil
	}
	if err != nil {
		return nil, status.Error(codes.Unknown, ctxErr(ctx, err).Error())
	}
	obj, err := pulumiwire.EncodeObject(ret, pulumiwire.Options{Secrets: true, Resources: true, ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "method %s: encoding its result: %v", req.GetTok(), err)
	}
	return &pulumirpc.CallResponse{Return: obj}, nil
}

// RegisterStackTransform implements pulumirpc.ResourceMonitorServer: the
// transform applies to every resource registered after (transform.go).
func (m *resourceMonitor) RegisterStackTransform(_ context.Context, cb *pulumirpc.Callback) (*emptypb.Empty, error) {
	m.s.addStackTransform(cb)
	return &emptypb.Empty{}, nil
}

// RegisterStackInvokeTransform implements pulumirpc.ResourceMonitorServer:
// the transform applies to every function invoked after.
func (m *resourceMonitor) RegisterStackInvokeTransform(_ context.Context, cb *pulumirpc.Callback) (*emptypb.Empty, error) {
	m.s.addInvokeTransform(cb)
	return &emptypb.Empty{}, nil
}

// RegisterResourceHook implements pulumirpc.ResourceMonitorServer: the
// hook runs where a resource's hooks option names it (hooks.go).
func (m *resourceMonitor) RegisterResourceHook(_ context.Context, req *pulumirpc.RegisterResourceHookRequest) (*emptypb.Empty, error) {
	m.s.addHook(req)
	return &emptypb.Empty{}, nil
}

// RegisterErrorHook implements pulumirpc.ResourceMonitorServer: the hook
// runs where a resource's hooks option names it in onError (hooks.go).
func (m *resourceMonitor) RegisterErrorHook(_ context.Context, req *pulumirpc.RegisterErrorHookRequest) (*emptypb.Empty, error) {
	m.s.addErrorHook(req)
	return &emptypb.Empty{}, nil
}

// RegisterPackage implements pulumirpc.ResourceMonitorServer.
func (m *resourceMonitor) RegisterPackage(_ context.Context, req *pulumirpc.RegisterPackageRequest) (*pulumirpc.RegisterPackageResponse, error) {
	return nil, m.s.unsupported(fmt.Sprintf("the parameterized package %s", strings.TrimSpace(req.GetName()+" "+req.GetVersion())), "use the provider's own package")
}

// SignalAndWaitForShutdown implements pulumirpc.ResourceMonitorServer:
// the program has registered everything (every registration has been
// answered by the time it calls) and waits, its Callbacks service still
// serving, while the engine deletes what it did not register, running
// their delete hooks (hooks.go).
func (m *resourceMonitor) SignalAndWaitForShutdown(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	m.s.finish()
	return &emptypb.Empty{}, nil
}
