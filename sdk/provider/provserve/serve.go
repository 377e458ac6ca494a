package provserve

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/grpc"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// handshake is the go-plugin handshake Terraform's plugins use.
var handshake = plugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// Serve serves p as a provisioner plugin (protocol 5) until the client
// ends the process.
func Serve(p provider.Provisioner) {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  handshake,
		VersionedPlugins: map[int]plugin.PluginSet{5: {"provisioner": &grpcPlugin{p: p}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

type grpcPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	p provider.Provisioner
}

func (g *grpcPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin5.RegisterProvisionerServer(s, newServer(g.p))
	return nil
}

func (g *grpcPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("provserve only serves provisioners")
}

// server is the Provisioner service over an SDK provisioner. Stop cancels
// every ProvisionResource in flight.
type server struct {
	tfplugin5.UnimplementedProvisionerServer
	p  provider.Provisioner
	ty cty.Type

	mu      sync.Mutex
	cancels map[*context.CancelFunc]struct{}
}

func newServer(p provider.Provisioner) *server {
	return &server{p: p, ty: configType(p.Config), cancels: map[*context.CancelFunc]struct{}{}}
}

func (s *server) GetSchema(context.Context, *tfplugin5.GetProvisionerSchema_Request) (*tfplugin5.GetProvisionerSchema_Response, error) {
	sch, err := schemaOf(s.p)
	if err != nil {
		return &tfplugin5.GetProvisionerSchema_Response{Diagnostics: errorDiag("Invalid provisioner schema", err)}, nil
	}
	return &tfplugin5.GetProvisionerSchema_Response{Provisioner: sch}, nil
}

func (s *server) ValidateProvisionerConfig(ctx context.Context, req *tfplugin5.ValidateProvisionerConfig_Request) (*tfplugin5.ValidateProvisionerConfig_Response, error) {
	cfg, err := s.config(req.GetConfig())
	if err != nil {
		return &tfplugin5.ValidateProvisionerConfig_Response{Diagnostics: errorDiag("Invalid provisioner configuration", err)}, nil
	}
	var diags []*tfplugin5.Diagnostic
	for name, prop := range s.p.Config {
		if prop.Required && cfg[name].IsNull() {
			diags = append(diags, attrDiag(name, fmt.Sprintf("provisioner %s needs %q", s.p.Name, name)))
		}
	}
	if s.p.Validate != nil {
		for _, f := range s.p.Validate(ctx, cfg) {
			diags = append(diags, attrDiag(f.Property, f.Reason))
		}
	}
	return &tfplugin5.ValidateProvisionerConfig_Response{Diagnostics: diags}, nil
}

func (s *server) ProvisionResource(req *tfplugin5.ProvisionResource_Request, stream tfplugin5.Provisioner_ProvisionResourceServer) error {
	cfg, err := s.config(req.GetConfig())
	if err != nil {
		return stream.Send(&tfplugin5.ProvisionResource_Response{Diagnostics: errorDiag("Invalid provisioner configuration", err)})
	}
	conn, _ := decodeDynamic(req.GetConnection(), cty.DynamicPseudoType)
	ctx, cancel := context.WithCancel(stream.Context())
	defer s.track(&cancel)()
	var sendMu sync.Mutex
	out := func(line string) {
		sendMu.Lock()
		defer sendMu.Unlock()
		_ = stream.Send(&tfplugin5.ProvisionResource_Response{Output: line})
	}
	if err := s.run(ctx, provider.ProvisionRequest{Config: cfg, Connection: objectFromCty(conn), Output: out}); err != nil {
		sendMu.Lock()
		defer sendMu.Unlock()
		return stream.Send(&tfplugin5.ProvisionResource_Response{Diagnostics: errorDiag("provisioner "+s.p.Name+" failed", err)})
	}
	return nil
}

// run calls Provision, turning a panic into an error.
func (s *server) run(ctx context.Context, req provider.ProvisionRequest) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("provisioner %s panicked in Provision: %v\n%s", s.p.Name, r, debug.Stack())
		}
	}()
	return s.p.Provision(ctx, req)
}

// track registers a run's cancel for Stop and returns its release.
func (s *server) track(cancel *context.CancelFunc) func() {
	s.mu.Lock()
	s.cancels[cancel] = struct{}{}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.cancels, cancel)
		s.mu.Unlock()
		(*cancel)()
	}
}

func (s *server) Stop(context.Context, *tfplugin5.Stop_Request) (*tfplugin5.Stop_Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.cancels {
		(*c)()
	}
	return &tfplugin5.Stop_Response{}, nil
}

func (s *server) config(dv *tfplugin5.DynamicValue) (resource.Object, error) {
	v, err := decodeDynamic(dv, s.ty)
	if err != nil {
		return nil, err
	}
	return objectFromCty(v), nil
}

func decodeDynamic(dv *tfplugin5.DynamicValue, ty cty.Type) (cty.Value, error) {
	if dv == nil || len(dv.Msgpack) == 0 {
		return cty.NullVal(ty), nil
	}
	return msgpack.Unmarshal(dv.Msgpack, ty)
}

func errorDiag(summary string, err error) []*tfplugin5.Diagnostic {
	return []*tfplugin5.Diagnostic{{Severity: tfplugin5.Diagnostic_ERROR, Summary: summary, Detail: err.Error()}}
}

func attrDiag(attr, detail string) *tfplugin5.Diagnostic {
	d := &tfplugin5.Diagnostic{Severity: tfplugin5.Diagnostic_ERROR, Summary: "Invalid provisioner configuration", Detail: detail}
	if attr != "" {
		d.Attribute = &tfplugin5.AttributePath{Steps: []*tfplugin5.AttributePath_Step{{Selector: &tfplugin5.AttributePath_Step_AttributeName{AttributeName: attr}}}}
	}
	return d
}
