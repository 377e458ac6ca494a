package monitor

import (
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// GetResourceToken is the function the SDKs invoke for a resource the
// program names by URN (`new Resource(name, {}, {urn})`): the engine
// answers with what the state records of it.
const GetResourceToken = "pulumi:pulumi:getResource"

// resourceLookup is the part of the engine's Monitor that reads a
// recorded resource back (engine's monitor implements it).
type resourceLookup interface {
	Lookup(urn resource.URN) (engine.RecordedResource, bool)
}

// getResource answers the getResource invoke: {urn, id, state}, state
// being the recorded outputs, secrets kept secret, as Pulumi's engine
// answers it.
func (s *Server) getResource(args resource.Object, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeResponse, error) {
	v := args["urn"]
	if v.Kind() != resource.StringKind || v.Str() == "" {
		err := &RequestError{"function " + GetResourceToken, "the program gave no URN; pass the URN of a resource the stack records (the urn resource option)"}
		return nil, status.Error(codes.InvalidArgument, s.refuse(err).Error())
	}
	urn := resource.URN(v.Str())
	look, ok := s.mon.(resourceLookup)
	var rec engine.RecordedResource
	if ok {
		rec, ok = look.Lookup(urn)
	}
	if !ok {
		err := &RequestError{"resource " + string(urn), fmt.Sprintf("the program reads it by URN (the urn resource option), but stack %s records no such resource; check the URN with `plinth state list`", s.cfg.Stack)}
		return nil, status.Error(codes.NotFound, s.refuse(err).Error())
	}
	ret := resource.Object{"urn": resource.NewString(string(rec.URN)), "id": resource.NewString(rec.ID), "state": resource.NewObject(rec.Outputs)}
	obj, err := pulumiwire.EncodeObject(ret, pulumiwire.Options{Secrets: true, Resources: req.GetAcceptResources(), ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "resource %s: encoding its recorded outputs: %v", urn, err)
	}
	return &pulumirpc.ResourceInvokeResponse{Return: obj}, nil
}
