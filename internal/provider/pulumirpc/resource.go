package pulumirpc

import (
	"context"
	"fmt"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (p *Provider) checkRequest(req provider.CheckRequest, opts pulumiwire.Options) (*pb.CheckRequest, error) {
	w := &pb.CheckRequest{Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type(), RandomSeed: req.RandomSeed}
	s, err := structs(nil).add(pulumiwire.Fields.CheckOlds, req.Olds, opts)
	if err == nil {
		s, err = s.add(pulumiwire.Fields.CheckNews, req.News, opts)
	}
	s.set(w)
	return w, err
}

func (p *Provider) checkResponse(method string, req provider.CheckRequest, resp *pb.CheckResponse) (provider.CheckResponse, error) {
	inputs, err := pulumiwire.GetStructField(resp, pulumiwire.Fields.CheckInputs).Decode(receiveOptions(true))
	if err != nil {
		return provider.CheckResponse{}, p.codecError(method, req.URN, "decoding the checked inputs", err)
	}
	if !p.features().secrets {
		inputs = keepSecrets(inputs, req.News)
	}
	var failures []provider.CheckFailure
	for _, f := range pulumiwire.DecodeCheckFailures(resp.GetFailures()) {
		failures = append(failures, provider.CheckFailure(f))
	}
	return provider.CheckResponse{Inputs: inputs, Failures: failures}, nil
}

// keepSecrets marks secret in outs what held a secret in ins: a plugin
// that does not accept secrets got them in the clear and sends them back
// unmarked. As Pulumi's engine does, maps present in both are compared
// key by key, so one secret deep in a map does not seal the map; any
// other property whose input held a secret is sealed as a whole (a list's
// elements may come back in another order). outs is decoded afresh and
// changed in place.
func keepSecrets(outs, ins resource.Object) resource.Object {
	for k, v := range outs {
		in, ok := ins[k]
		switch {
		case !ok || v.IsSecret() || !in.ContainsSecrets():
		case v.Kind() == resource.ObjectKind && in.Kind() == resource.ObjectKind:
			outs[k] = resource.NewObject(keepSecrets(v.Object(), in.Object()))
		default:
			outs[k] = resource.MakeSecret(v)
		}
	}
	return outs
}

// Check implements provider.Provider. While the configuration is unknown
// the inputs are returned as they are.
func (p *Provider) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	if p.features().unknown {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	wreq, err := p.checkRequest(req, p.sendOptions())
	if err != nil {
		return provider.CheckResponse{}, p.codecError("Check", req.URN, "encoding the inputs", err)
	}
	resp, err := p.client.Check(ctx, wreq, leaveStructs)
	if err != nil {
		return provider.CheckResponse{}, p.callError(ctx, "Check", req.URN, 0, err)
	}
	return p.checkResponse("Check", req, resp)
}

func (p *Provider) diffRequest(req provider.DiffRequest, opts pulumiwire.Options) (*pb.DiffRequest, error) {
	w := &pb.DiffRequest{Id: req.ID, Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type(), IgnoreChanges: paths(req.IgnoreChanges)}
	s, err := structs(nil).add(pulumiwire.Fields.DiffOldInputs, req.OldInputs, opts)
	if err == nil {
		s, err = s.add(pulumiwire.Fields.DiffOlds, req.OldOutputs, opts)
	}
	if err == nil {
		s, err = s.add(pulumiwire.Fields.DiffNews, req.News, opts)
	}
	s.set(w)
	return w, err
}

func paths(ps []resource.PropertyPath) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = pulumiwire.FormatPath(p)
	}
	return out
}

func diffResponse(resp *pb.DiffResponse) provider.DiffResponse {
	out := provider.DiffResponse{
		ReplaceKeys:         resp.GetReplaces(),
		StableKeys:          resp.GetStables(),
		ChangedKeys:         resp.GetDiffs(),
		DeleteBeforeReplace: resp.GetDeleteBeforeReplace(),
	}
	switch resp.GetChanges() {
	case pb.DiffResponse_DIFF_NONE:
		out.Changes = provider.DiffNone
	case pb.DiffResponse_DIFF_SOME:
		out.Changes = provider.DiffSome
	default:
		out.Changes = provider.DiffUnknown
	}
	if resp.GetHasDetailedDiff() {
		out.DetailedDiff = pulumiwire.DecodeDetailedDiff(resp.GetDetailedDiff())
	}
	return out
}

// Diff implements provider.Provider. While the configuration is unknown
// the answer is "unknown": the engine compares inputs itself.
func (p *Provider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	if p.features().unknown {
		return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
	}
	wreq, err := p.diffRequest(req, p.sendOptions())
	if err != nil {
		return provider.DiffResponse{}, p.codecError("Diff", req.URN, "encoding the inputs and state", err)
	}
	resp, err := p.client.Diff(ctx, wreq)
	if err != nil {
		return provider.DiffResponse{}, p.callError(ctx, "Diff", req.URN, 0, err)
	}
	return diffResponse(resp), nil
}

// previewLocally reports whether a preview must be answered without the
// plugin: it does not support previews, or it could not be configured.
func (p *Provider) previewLocally(preview bool) bool {
	f := p.features()
	return preview && (f.unknown || !f.preview)
}

// Create implements provider.Provider.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if p.previewLocally(req.Preview) {
		return provider.CreateResponse{Outputs: req.Inputs}, nil
	}
	opts := p.sendOptions()
	opts.RejectUnknowns = !req.Preview
	wreq := &pb.CreateRequest{
		Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type(),
		Timeout: req.Timeout.Seconds(), Preview: req.Preview,
	}
	ins, err := structs(nil).add(pulumiwire.Fields.CreateProps, req.Inputs, opts)
	if err != nil {
		return provider.CreateResponse{}, p.codecError("Create", req.URN, "encoding the inputs", err)
	}
	ins.set(wreq)
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	resp, err := p.client.Create(ctx, wreq, leaveStructs)
	if err != nil {
		return provider.CreateResponse{}, p.resourceError(ctx, "Create", req.URN, "", req.Timeout, err)
	}
	if resp.GetId() == "" && !req.Preview {
		return provider.CreateResponse{}, provider.OutcomeUnknown(fmt.Errorf("provider %s: Create of %s returned no ID; the provider is broken, and the resource may exist", p.name, req.URN))
	}
	props := pulumiwire.GetStructField(resp, pulumiwire.Fields.CreateOutputs)
	if err := tooLarge(req.URN, props); err != nil {
		return provider.CreateResponse{}, &provider.InitError{ID: resp.GetId(), Reasons: []string{err.Error()}}
	}
	outs, err := props.Decode(receiveOptions(req.Preview))
	if err != nil {
		return provider.CreateResponse{}, &provider.InitError{ID: resp.GetId(), Reasons: []string{p.codecError("Create", req.URN, "decoding the outputs", err).Error()}}
	}
	return provider.CreateResponse{ID: resp.GetId(), Outputs: p.markSecrets(outs, req.Inputs)}, nil
}

// tooLarge refuses a state over provider.MaxStateBytes.
func tooLarge(urn resource.URN, props pulumiwire.StructField) error {
	if n := props.Size(); n > provider.MaxStateBytes {
		return &provider.StateTooLargeError{URN: urn, Size: n}
	}
	return nil
}

func (p *Provider) markSecrets(outs, ins resource.Object) resource.Object {
	if p.features().secrets {
		return outs
	}
	return keepSecrets(outs, ins)
}

// resourceError returns the InitError a provider attached to a failed call,
// or the call error.
func (p *Provider) resourceError(ctx context.Context, method string, urn resource.URN, id string, timeout time.Duration, err error) error {
	ie, derr := initError(err, id)
	if derr != nil {
		// The plugin says something exists, but not what.
		return provider.OutcomeUnknown(p.codecError(method, urn, "decoding the partial result", derr))
	}
	if ie != nil {
		return ie
	}
	return p.callError(ctx, method, urn, timeout, err)
}

// Read implements provider.Provider. An empty ID in the answer means the
// resource no longer exists.
func (p *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	opts := p.sendOptions()
	wreq := &pb.ReadRequest{Id: req.ID, Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type()}
	s, err := structs(nil).add(pulumiwire.Fields.ReadProps, req.State, opts)
	if err != nil {
		return provider.ReadResponse{}, p.codecError("Read", req.URN, "encoding the state", err)
	}
	if req.Inputs != nil { // no inputs (an import) are sent as none
		if s, err = s.add(pulumiwire.Fields.ReadInputs, req.Inputs, opts); err != nil {
			return provider.ReadResponse{}, p.codecError("Read", req.URN, "encoding the inputs", err)
		}
	}
	s.set(wreq)
	resp, err := p.client.Read(ctx, wreq, leaveStructs)
	if err != nil {
		return provider.ReadResponse{}, p.resourceError(ctx, "Read", req.URN, req.ID, 0, err)
	}
	return p.readResponse(req, resp)
}

func (p *Provider) readResponse(req provider.ReadRequest, resp *pb.ReadResponse) (provider.ReadResponse, error) {
	if resp.GetId() == "" {
		return provider.ReadResponse{}, nil
	}
	props := pulumiwire.GetStructField(resp, pulumiwire.Fields.ReadOutputs)
	if err := tooLarge(req.URN, props); err != nil {
		return provider.ReadResponse{}, err
	}
	outs, err := props.Decode(receiveOptions(false))
	if err != nil {
		return provider.ReadResponse{}, p.codecError("Read", req.URN, "decoding the state", err)
	}
	ins, err := pulumiwire.GetStructField(resp, pulumiwire.Fields.ReadOutputInputs).Decode(receiveOptions(false))
	if err != nil {
		return provider.ReadResponse{}, p.codecError("Read", req.URN, "decoding the inputs", err)
	}
	return provider.ReadResponse{ID: resp.GetId(), Outputs: p.markSecrets(outs, req.State), Inputs: p.markSecrets(ins, req.Inputs)}, nil
}

// Update implements provider.Provider.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if p.previewLocally(req.Preview) {
		return provider.UpdateResponse{Outputs: req.News}, nil
	}
	wreq, err := p.updateRequest(req)
	if err != nil {
		return provider.UpdateResponse{}, p.codecError("Update", req.URN, "encoding the inputs and state", err)
	}
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	resp, err := p.client.Update(ctx, wreq, leaveStructs)
	if err != nil {
		return provider.UpdateResponse{}, p.resourceError(ctx, "Update", req.URN, req.ID, req.Timeout, err)
	}
	props := pulumiwire.GetStructField(resp, pulumiwire.Fields.UpdateOutputs)
	if err := tooLarge(req.URN, props); err != nil {
		return provider.UpdateResponse{}, &provider.InitError{ID: req.ID, Reasons: []string{err.Error()}}
	}
	outs, err := props.Decode(receiveOptions(req.Preview))
	if err != nil {
		return provider.UpdateResponse{}, &provider.InitError{ID: req.ID, Reasons: []string{p.codecError("Update", req.URN, "decoding the outputs", err).Error()}}
	}
	return provider.UpdateResponse{Outputs: p.markSecrets(outs, req.News)}, nil
}

func (p *Provider) updateRequest(req provider.UpdateRequest) (*pb.UpdateRequest, error) {
	w := &pb.UpdateRequest{
		Id: req.ID, Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type(),
		Timeout: req.Timeout.Seconds(), IgnoreChanges: paths(req.IgnoreChanges), Preview: req.Preview,
	}
	opts := p.sendOptions()
	s, err := structs(nil).add(pulumiwire.Fields.UpdateOlds, req.OldOutputs, opts)
	if err == nil {
		s, err = s.add(pulumiwire.Fields.UpdateOldInputs, req.OldInputs, opts)
	}
	opts.RejectUnknowns = !req.Preview
	if err == nil {
		s, err = s.add(pulumiwire.Fields.UpdateNews, req.News, opts)
	}
	s.set(w)
	return w, err
}

// Delete implements provider.Provider.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
	opts := p.sendOptions()
	s, err := structs(nil).add(pulumiwire.Fields.DeleteProps, req.Outputs, opts)
	if err != nil {
		return provider.DeleteResponse{}, p.codecError("Delete", req.URN, "encoding the state", err)
	}
	if s, err = s.add(pulumiwire.Fields.DeleteOldInputs, req.Inputs, opts); err != nil {
		return provider.DeleteResponse{}, p.codecError("Delete", req.URN, "encoding the inputs", err)
	}
	wreq := &pb.DeleteRequest{Id: req.ID, Urn: string(req.URN), Name: req.URN.Name(), Type: req.URN.Type(), Timeout: req.Timeout.Seconds()}
	s.set(wreq)
	ctx, cancel := withTimeout(ctx, req.Timeout)
	defer cancel()
	_, err = p.client.Delete(ctx, wreq)
	if err != nil {
		return provider.DeleteResponse{}, p.callError(ctx, "Delete", req.URN, req.Timeout, err)
	}
	return provider.DeleteResponse{}, nil
}

// Invoke implements provider.Provider. Function arguments must be known.
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	opts := p.sendOptions()
	opts.RejectUnknowns = true
	args, err := structs(nil).add(pulumiwire.Fields.InvokeArgs, req.Args, opts)
	if err != nil {
		return provider.InvokeResponse{}, p.codecError("Invoke", "", "encoding the arguments of "+req.Token, err)
	}
	wreq := &pb.InvokeRequest{Tok: req.Token}
	args.set(wreq)
	resp, err := p.client.Invoke(ctx, wreq, leaveStructs)
	if err != nil {
		return provider.InvokeResponse{}, p.callError(ctx, "Invoke "+req.Token, "", 0, err)
	}
	ret, err := pulumiwire.GetStructField(resp, pulumiwire.Fields.InvokeReturn).Decode(receiveOptions(true))
	if err != nil {
		return provider.InvokeResponse{}, p.codecError("Invoke", "", "decoding the result of "+req.Token, err)
	}
	var failures []provider.CheckFailure
	for _, f := range pulumiwire.DecodeCheckFailures(resp.GetFailures()) {
		failures = append(failures, provider.CheckFailure(f))
	}
	return provider.InvokeResponse{Return: ret, Failures: failures}, nil
}
