package monitor

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ReadResource implements pulumirpc.ResourceMonitorServer: a `get`
// function reads an existing resource that plinth does not manage. The
// engine reads it through its provider and records it as external (see
// engine.Registration.ReadID); the answer is its URN and what was read.
func (m *resourceMonitor) ReadResource(ctx context.Context, req *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	s := m.s
	if req.GetType() == StackReferenceType {
		return s.readStackReference(ctx, req)
	}
	urn := s.mon.URN(req.GetType(), req.GetName(), s.parent(req.GetParent()))
	reg, err := s.readRegistration(req, urn)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	res, err := engine.RegisterAndWait(ctx, s.mon, reg)
	if err != nil {
		s.markFailed()
		return nil, registrationFailed(ctx, err)
	}
	outputs := withSecrets(res.Outputs, req.GetAdditionalSecretOutputs())
	obj, err := pulumiwire.EncodeObject(outputs, pulumiwire.Options{Secrets: req.GetAcceptSecrets(), Resources: req.GetAcceptResources(), ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "resource %s: encoding what was read: %v", res.URN, err)
	}
	return &pulumirpc.ReadResourceResponse{Urn: string(res.URN), Properties: obj}, nil
}

// readRegistration translates a ReadResource request into the engine's
// read registration.
func (s *Server) readRegistration(req *pulumirpc.ReadResourceRequest, urn resource.URN) (engine.Registration, error) {
	what := "resource " + string(urn)
	if req.GetId() == "" {
		return engine.Registration{}, &RequestError{what, "the program reads an existing resource (get) without an ID; pass the ID of the resource to read"}
	}
	if req.GetPackageRef() != "" {
		return engine.Registration{}, &RequestError{what, "it belongs to a parameterized package, which plinth does not support"}
	}
	props, err := pulumiwire.DecodeObject(req.GetProperties(), pulumiwire.Full())
	if err != nil {
		return engine.Registration{}, &RequestError{what, fmt.Sprintf("the program sent a malformed value (%v) in the properties of a get", err)}
	}
	if props == nil {
		props = resource.Object{}
	}
	return engine.Registration{
		Type: req.GetType(), Name: req.GetName(), Custom: true, ReadID: req.GetId(),
		Parent: s.parent(req.GetParent()), Inputs: props, Dependencies: s.urns(req.GetDependencies()),
		Provider: s.providerRef(req.GetProvider()), Version: req.GetVersion(), PluginDownloadURL: req.GetPluginDownloadURL(),
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
	}, nil
}

// withSecrets marks the named outputs secret (additionalSecretOutputs);
// the engine records them so, and this covers what it returns before.
func withSecrets(outputs resource.Object, names []string) resource.Object {
	if len(names) == 0 {
		return outputs
	}
	outputs = outputs.Copy()
	for _, k := range names {
		if v, ok := outputs[k]; ok && !v.IsSecret() {
			outputs[k] = resource.MakeSecret(v)
		}
	}
	return outputs
}
