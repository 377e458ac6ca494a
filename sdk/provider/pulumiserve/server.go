package pulumiserve

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Server adapts a provider.Provider to the ResourceProvider gRPC service.
type Server struct {
	pb.UnimplementedResourceProviderServer

	p provider.Provider

	mu          sync.RWMutex
	engineAddr  string
	engineConn  *grpc.ClientConn   // to engineAddr, for warnings; see engine
	peer        pulumiwire.Options // what the engine accepts
	wire        bool               // responses' objects go straight to the wire; see setObjects
	schemaOnce  sync.Once
	schema      provider.Schema
	schemaError error
}

var _ pb.ResourceProviderServer = (*Server)(nil)

// NewServer serves p; engineAddress is the engine's address, if known.
func NewServer(p provider.Provider, engineAddress string) *Server {
	return &Server{p: p, engineAddr: engineAddress, peer: pulumiwire.Options{Secrets: true, Resources: true}}
}

// send is how values go to the engine: downgraded for what it accepts.
func (s *Server) send(preview bool) pulumiwire.Options {
	s.mu.RLock()
	defer s.mu.RUnlock()
	o := s.peer
	o.RejectUnknowns = !preview
	return o
}

// receive decodes what the engine sends: every form is understood.
func receive() pulumiwire.Options { return pulumiwire.Full() }

func (s *Server) getSchema(ctx context.Context) (provider.Schema, error) {
	s.schemaOnce.Do(func() {
		resp, err := s.p.GetSchema(ctx, provider.GetSchemaRequest{})
		s.schema, s.schemaError = resp.Schema, err
	})
	return s.schema, s.schemaError
}

// Handshake records what the engine offers and says what this provider
// accepts.
func (s *Server) Handshake(_ context.Context, req *pb.ProviderHandshakeRequest) (*pb.ProviderHandshakeResponse, error) {
	s.mu.Lock()
	s.setEngineAddr(req.GetEngineAddress())
	s.peer.ByteStrings = req.GetAcceptsByteString()
	s.mu.Unlock()
	return &pb.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true, AcceptsByteString: true}, nil
}

// Attach records the engine's address when the engine attaches to a
// provider started by hand.
func (s *Server) Attach(_ context.Context, req *pb.PluginAttach) (*emptypb.Empty, error) {
	s.mu.Lock()
	s.setEngineAddr(req.GetAddress())
	s.mu.Unlock()
	return &emptypb.Empty{}, nil
}

// GetPluginInfo returns the provider's version.
func (s *Server) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pb.PluginInfo, error) {
	info, err := s.p.GetPluginInfo(ctx, provider.GetPluginInfoRequest{})
	if err != nil {
		return nil, s.status(err)
	}
	return &pb.PluginInfo{Version: info.Version}, nil
}

// GetSchema returns the Pulumi package schema derived from the provider's.
func (s *Server) GetSchema(ctx context.Context, _ *pb.GetSchemaRequest) (*pb.GetSchemaResponse, error) {
	sch, err := s.getSchema(ctx)
	if err != nil {
		return nil, s.status(err)
	}
	b, err := json.Marshal(PackageSchema(sch))
	if err != nil {
		return nil, s.status(err)
	}
	return &pb.GetSchemaResponse{Schema: string(b)}, nil
}

// GetMapping answers that this provider maps to no other ecosystem's.
func (s *Server) GetMapping(context.Context, *pb.GetMappingRequest) (*pb.GetMappingResponse, error) {
	return &pb.GetMappingResponse{}, nil
}

// GetMappings answers that there are no mappings.
func (s *Server) GetMappings(context.Context, *pb.GetMappingsRequest) (*pb.GetMappingsResponse, error) {
	return &pb.GetMappingsResponse{}, nil
}

// Cancel asks the provider to stop work in flight.
func (s *Server) Cancel(ctx context.Context, _ *emptypb.Empty) (*emptypb.Empty, error) {
	if _, err := s.p.Cancel(ctx, provider.CancelRequest{}); err != nil {
		return nil, s.status(err)
	}
	return &emptypb.Empty{}, nil
}

// CheckConfig validates the provider's configuration.
func (s *Server) CheckConfig(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return s.check(ctx, req, s.p.CheckConfig, func(sc provider.Schema) map[string]provider.Property { return sc.Config })
}

// Check validates a resource's inputs.
func (s *Server) Check(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	return s.check(ctx, req, s.p.Check, func(sc provider.Schema) map[string]provider.Property {
		return sc.Resources[resource.URN(req.GetUrn()).Type()].Inputs
	})
}

type checkFunc func(context.Context, provider.CheckRequest) (provider.CheckResponse, error)

// check runs f and warns of the deprecated properties the inputs set
// (props picks their schema).
func (s *Server) check(ctx context.Context, req *pb.CheckRequest, f checkFunc, props func(provider.Schema) map[string]provider.Property) (*pb.CheckResponse, error) {
	olds, err := decodeField(req, pulumiwire.Fields.CheckOlds, "olds")
	if err != nil {
		return nil, err
	}
	news, err := decodeField(req, pulumiwire.Fields.CheckNews, "news")
	if err != nil {
		return nil, err
	}
	if len(olds) == 0 {
		olds = nil // engines send {} for "no old inputs"
	}
	resp, err := f(ctx, provider.CheckRequest{URN: resource.URN(req.GetUrn()), Olds: olds, News: news, RandomSeed: req.GetRandomSeed()})
	if err != nil {
		return nil, s.status(err)
	}
	out := &pb.CheckResponse{Failures: pulumiwire.EncodeCheckFailures(failures(resp.Failures))}
	if err := s.setObjects(out, true, outField{pulumiwire.Fields.CheckInputs, resp.Inputs, "checked inputs"}); err != nil {
		return nil, err
	}
	if sc, err := s.getSchema(ctx); err == nil {
		s.warnDeprecated(ctx, req.GetUrn(), props(sc), news)
	}
	return out, nil
}

func failures(fs []provider.CheckFailure) []pulumiwire.CheckFailure {
	out := make([]pulumiwire.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = pulumiwire.CheckFailure(f)
	}
	return out
}

// DiffConfig compares two configurations.
func (s *Server) DiffConfig(ctx context.Context, req *pb.DiffRequest) (*pb.DiffResponse, error) {
	return s.diff(ctx, req, s.p.DiffConfig)
}

// Diff compares a resource's recorded state with new inputs.
func (s *Server) Diff(ctx context.Context, req *pb.DiffRequest) (*pb.DiffResponse, error) {
	return s.diff(ctx, req, s.p.Diff)
}

type diffFunc func(context.Context, provider.DiffRequest) (provider.DiffResponse, error)

func (s *Server) diff(ctx context.Context, req *pb.DiffRequest, f diffFunc) (*pb.DiffResponse, error) {
	dreq, err := diffRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := f(ctx, dreq)
	if err != nil {
		return nil, s.status(err)
	}
	return &pb.DiffResponse{
		Replaces: resp.ReplaceKeys, Stables: resp.StableKeys, Diffs: resp.ChangedKeys,
		Changes:             diffChanges(resp.Changes),
		DetailedDiff:        pulumiwire.EncodeDetailedDiff(resp.DetailedDiff),
		HasDetailedDiff:     resp.DetailedDiff != nil,
		DeleteBeforeReplace: resp.DeleteBeforeReplace,
	}, nil
}

func diffRequest(req *pb.DiffRequest) (provider.DiffRequest, error) {
	olds, err := decodeField(req, pulumiwire.Fields.DiffOlds, "olds")
	if err != nil {
		return provider.DiffRequest{}, err
	}
	oldIns, err := decodeField(req, pulumiwire.Fields.DiffOldInputs, "old inputs")
	if err != nil {
		return provider.DiffRequest{}, err
	}
	news, err := decodeField(req, pulumiwire.Fields.DiffNews, "news")
	if err != nil {
		return provider.DiffRequest{}, err
	}
	ignore, err := ignoreChanges(req.GetIgnoreChanges())
	if err != nil {
		return provider.DiffRequest{}, err
	}
	return provider.DiffRequest{URN: resource.URN(req.GetUrn()), ID: req.GetId(), OldInputs: oldIns, OldOutputs: olds, News: news, IgnoreChanges: ignore}, nil
}

func diffChanges(c provider.DiffChanges) pb.DiffResponse_DiffChanges {
	switch c {
	case provider.DiffNone:
		return pb.DiffResponse_DIFF_NONE
	case provider.DiffSome:
		return pb.DiffResponse_DIFF_SOME
	}
	return pb.DiffResponse_DIFF_UNKNOWN
}

func ignoreChanges(paths []string) ([]resource.PropertyPath, error) {
	var out []resource.PropertyPath
	for _, s := range paths {
		p, err := pulumiwire.ParsePath(s)
		if err != nil {
			return nil, invalid("ignoreChanges: %v", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// Configure applies the configuration, from args or, for an older engine,
// from the string variables.
func (s *Server) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	inputs, err := s.configInputs(ctx, req)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.peer.Secrets, s.peer.Resources = req.GetAcceptSecrets(), req.GetAcceptResources()
	s.mu.Unlock()
	resp, err := s.p.Configure(ctx, provider.ConfigureRequest{Inputs: inputs, Preview: resource.NewObject(inputs).ContainsUnknowns()})
	if err != nil {
		return nil, s.status(err)
	}
	return &pb.ConfigureResponse{AcceptSecrets: resp.AcceptSecrets, AcceptResources: resp.AcceptResources, SupportsPreview: resp.SupportsPreview}, nil
}

func (s *Server) configInputs(ctx context.Context, req *pb.ConfigureRequest) (resource.Object, error) {
	if req.GetArgs() != nil {
		return decode(req.GetArgs(), "configuration")
	}
	sch, _ := s.getSchema(ctx)
	o := resource.Object{}
	//lint:ignore SA1019 an engine that predates Args sends the configuration only in Variables; serving it is the protocol's compatibility rule
	for k, v := range req.GetVariables() {
		name := k[strings.LastIndex(k, ":")+1:]
		o[name] = variableValue(v, sch.Config[name].Type.Kind)
	}
	return o, nil
}

// variableValue reads a legacy configuration variable: a string as it is
// for string properties, else JSON when it parses.
func variableValue(v string, kind provider.TypeKind) resource.Value {
	if kind == provider.TypeString {
		return resource.NewString(v)
	}
	var x any
	if err := json.Unmarshal([]byte(v), &x); err != nil {
		return resource.NewString(v)
	}
	if val, err := resource.FromGo(x); err == nil {
		return val
	}
	return resource.NewString(v)
}

// Create creates a resource.
func (s *Server) Create(ctx context.Context, req *pb.CreateRequest) (*pb.CreateResponse, error) {
	inputs, err := decodeField(req, pulumiwire.Fields.CreateProps, "inputs")
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Create(ctx, provider.CreateRequest{
		URN: resource.URN(req.GetUrn()), Inputs: inputs, Timeout: seconds(req.GetTimeout()), Preview: req.GetPreview(),
	})
	if err != nil {
		return nil, s.status(err)
	}
	out := &pb.CreateResponse{Id: resp.ID}
	if err := s.setObjects(out, req.GetPreview(), outField{pulumiwire.Fields.CreateOutputs, resp.Outputs, "outputs"}); err != nil {
		return nil, err
	}
	return out, nil
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// Read reads a resource's live state.
func (s *Server) Read(ctx context.Context, req *pb.ReadRequest) (*pb.ReadResponse, error) {
	state, err := decodeField(req, pulumiwire.Fields.ReadProps, "state")
	if err != nil {
		return nil, err
	}
	inputs, err := decodeField(req, pulumiwire.Fields.ReadInputs, "inputs")
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Read(ctx, provider.ReadRequest{URN: resource.URN(req.GetUrn()), ID: req.GetId(), Inputs: inputs, State: state})
	if err != nil {
		return nil, s.status(err)
	}
	if resp.ID == "" {
		return &pb.ReadResponse{}, nil
	}
	out := &pb.ReadResponse{Id: resp.ID}
	if err := s.setObjects(out, false, outField{pulumiwire.Fields.ReadOutputs, resp.Outputs, "state"}, outField{pulumiwire.Fields.ReadOutputInputs, resp.Inputs, "inputs"}); err != nil {
		return nil, err
	}
	return out, nil
}

// Update updates a resource in place.
func (s *Server) Update(ctx context.Context, req *pb.UpdateRequest) (*pb.UpdateResponse, error) {
	ureq, err := updateRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Update(ctx, ureq)
	if err != nil {
		return nil, s.status(err)
	}
	out := &pb.UpdateResponse{}
	if err := s.setObjects(out, req.GetPreview(), outField{pulumiwire.Fields.UpdateOutputs, resp.Outputs, "outputs"}); err != nil {
		return nil, err
	}
	return out, nil
}

func updateRequest(req *pb.UpdateRequest) (provider.UpdateRequest, error) {
	olds, err := decodeField(req, pulumiwire.Fields.UpdateOlds, "olds")
	if err != nil {
		return provider.UpdateRequest{}, err
	}
	oldIns, err := decodeField(req, pulumiwire.Fields.UpdateOldInputs, "old inputs")
	if err != nil {
		return provider.UpdateRequest{}, err
	}
	news, err := decodeField(req, pulumiwire.Fields.UpdateNews, "news")
	if err != nil {
		return provider.UpdateRequest{}, err
	}
	ignore, err := ignoreChanges(req.GetIgnoreChanges())
	if err != nil {
		return provider.UpdateRequest{}, err
	}
	return provider.UpdateRequest{
		URN: resource.URN(req.GetUrn()), ID: req.GetId(), OldInputs: oldIns, OldOutputs: olds, News: news,
		Timeout: seconds(req.GetTimeout()), IgnoreChanges: ignore, Preview: req.GetPreview(),
	}, nil
}

// Delete deletes a resource.
func (s *Server) Delete(ctx context.Context, req *pb.DeleteRequest) (*emptypb.Empty, error) {
	outs, err := decodeField(req, pulumiwire.Fields.DeleteProps, "state")
	if err != nil {
		return nil, err
	}
	ins, err := decodeField(req, pulumiwire.Fields.DeleteOldInputs, "inputs")
	if err != nil {
		return nil, err
	}
	_, err = s.p.Delete(ctx, provider.DeleteRequest{
		URN: resource.URN(req.GetUrn()), ID: req.GetId(), Inputs: ins, Outputs: outs, Timeout: seconds(req.GetTimeout()),
	})
	if err != nil {
		return nil, s.status(err)
	}
	return &emptypb.Empty{}, nil
}

// Invoke calls a provider function.
func (s *Server) Invoke(ctx context.Context, req *pb.InvokeRequest) (*pb.InvokeResponse, error) {
	args, err := decodeField(req, pulumiwire.Fields.InvokeArgs, "arguments")
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Invoke(ctx, provider.InvokeRequest{Token: req.GetTok(), Args: args})
	if err != nil {
		return nil, s.status(err)
	}
	out := &pb.InvokeResponse{Failures: pulumiwire.EncodeCheckFailures(failures(resp.Failures))}
	if err := s.setObjects(out, false, outField{pulumiwire.Fields.InvokeReturn, resp.Return, "result"}); err != nil {
		return nil, err
	}
	return out, nil
}

func decode(st *structpb.Struct, what string) (resource.Object, error) {
	o, err := pulumiwire.DecodeObject(st, receive())
	if err != nil {
		return nil, invalid("decoding the %s: %v", what, err)
	}
	return o, nil
}

// decodeField decodes m's Struct field num, which Codec may have left as
// bytes.
func decodeField(m proto.Message, num protowire.Number, what string) (resource.Object, error) {
	o, err := pulumiwire.GetStructField(m, num).Decode(receive())
	if err != nil {
		return nil, invalid("decoding the %s: %v", what, err)
	}
	return o, nil
}

// outField is an object of a response and the number of its Struct field.
type outField struct {
	num  protowire.Number
	obj  resource.Object
	what string
}

// setObjects sets m's Struct fields to the objects, encoded for the
// engine; a nil object leaves its field unset. Served by Serve, whose
// codec writes unknown fields as they are, they are written straight to
// the wire (pulumiwire.AppendObjectField) as m's unknown fields; else
// they are set as Structs, for callers that read the messages.
func (s *Server) setObjects(m proto.Message, preview bool, fields ...outField) error {
	opts := s.send(preview)
	r := m.ProtoReflect()
	var raw []byte
	for _, f := range fields {
		if f.obj == nil {
			continue
		}
		if s.wire {
			if raw == nil {
				raw = make([]byte, 0, 512) // most objects' size: appended without growing
			}
			b, err := pulumiwire.AppendObjectField(raw, f.num, f.obj, opts)
			if err != nil {
				return internal("encoding the %s: %v", f.what, err)
			}
			raw = b
			continue
		}
		st, err := pulumiwire.EncodeObject(f.obj, opts)
		if err != nil {
			return internal("encoding the %s: %v", f.what, err)
		}
		r.Set(r.Descriptor().Fields().ByNumber(f.num), protoreflect.ValueOfMessage(st.ProtoReflect()))
	}
	if raw != nil {
		r.SetUnknown(raw)
	}
	return nil
}

func (s *Server) encode(o resource.Object, preview bool, what string) (*structpb.Struct, error) {
	st, err := pulumiwire.EncodeObject(o, s.send(preview))
	if err != nil {
		return nil, internal("encoding the %s: %v", what, err)
	}
	return st, nil
}
