package monitor

import (
	"context"
	"fmt"
	"sort"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// StackReferenceType is the type of a stack reference
// (`new pulumi.StackReference("org/project/stack")`), which the SDKs read
// as an existing resource whose ID is the referenced stack's name.
const StackReferenceType = "pulumi:pulumi:StackReference"

// StackReader reads the outputs another stack's state records, from
// plinth's own backend: the CLI implements it over the backend it opened
// and the stack's secrets.
type StackReader interface {
	// StackOutputs returns the outputs of stack (of project, "" for the
	// current one), secrets marked secret.
	StackOutputs(ctx context.Context, project, stack string) (resource.Object, error)
}

// readStackReference answers the read of a stack reference without the
// engine, as Pulumi's built-in provider does: {name, outputs,
// secretOutputNames}. plinth keeps no record of the reference in the
// state; it is read again on every run, and dependencies on it are
// dropped (there is nothing to order against).
func (s *Server) readStackReference(ctx context.Context, req *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	urn := s.mon.URN(req.GetType(), req.GetName(), s.parent(req.GetParent()))
	name := req.GetId()
	project, stack, err := splitStackName(name)
	if err == nil && s.cfg.Stacks == nil {
		err = fmt.Errorf("plinth cannot read other stacks here")
	}
	var outputs resource.Object
	if err == nil {
		outputs, err = s.cfg.Stacks.StackOutputs(ctx, project, stack)
	}
	if err != nil {
		err = &RequestError{"stack reference " + string(urn), fmt.Sprintf("reading stack %q: %v", name, ctxErr(ctx, err))}
		s.markFailed()
		return nil, status.Error(codes.Unknown, s.refuse(err).Error())
	}
	s.addExternal(urn)
	ret := resource.Object{"name": resource.NewString(name), "outputs": resource.NewObject(outputs), "secretOutputNames": secretNames(outputs)}
	obj, err := pulumiwire.EncodeObject(ret, pulumiwire.Options{Secrets: req.GetAcceptSecrets(), Resources: req.GetAcceptResources(), ByteStrings: req.GetAcceptsByteString()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "stack reference %s: encoding the outputs of stack %q: %v", urn, name, err)
	}
	return &pulumirpc.ReadResourceResponse{Urn: string(urn), Properties: obj}, nil
}

// splitStackName splits a stack reference's name: "stack",
// "project/stack" or "org/project/stack". plinth's backends have no
// organisations: org is ignored.
func splitStackName(name string) (project, stack string, err error) {
	parts := strings.Split(name, "/")
	for _, p := range parts {
		if p == "" {
			parts = nil
			break
		}
	}
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	case 3:
		return parts[1], parts[2], nil
	}
	return "", "", fmt.Errorf("the name is not of the form stack, project/stack or org/project/stack")
}

// secretNames lists, sorted, the outputs that hold a secret.
func secretNames(outputs resource.Object) resource.Value {
	var names []string
	for k, v := range outputs {
		if v.ContainsSecrets() {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	elems := make([]resource.Value, len(names))
	for i, n := range names {
		elems[i] = resource.NewString(n)
	}
	return resource.NewArray(elems...)
}
