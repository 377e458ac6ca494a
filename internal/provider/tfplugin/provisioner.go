package tfplugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// Provisioner drives a provisioner plugin (terraform-provisioner-NAME)
// over the tfplugin5 Provisioner service: its schema shapes the
// configuration, ProvisionResource streams the output, Stop ends a run.
type Provisioner struct {
	name   string
	client *plugin.Client
	c      tfplugin5.ProvisionerClient
	schema *block
}

var _ provider.Provisioner = (*Provisioner)(nil)

// grpcProvisioner is go-plugin's client-side view of a provisioner.
type grpcProvisioner struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcProvisioner) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("plinth only acts as a Terraform provisioner client")
}

func (grpcProvisioner) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return tfplugin5.NewProvisionerClient(c), nil
}

// StartProvisioner starts the provisioner plugin cfg.Path (cfg.Name is its
// type) and reads its schema.
func StartProvisioner(ctx context.Context, cfg Config) (*Provisioner, error) {
	timeout, err := cfg.startTimeout()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(cfg.Path)
	cmd.Dir = cfg.Dir
	cmd.Env = append(append(os.Environ(), cfg.Env...), quietLogs(os.Environ(), cfg.Env)...)
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	tail := newOutputTail()
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{5: {"provisioner": grpcProvisioner{}}},
		Cmd:              cmd, StartTimeout: timeout, AutoMTLS: true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Stderr:           io.MultiWriter(tail, log), SyncStderr: io.MultiWriter(tail, log), SyncStdout: log,
		Logger: hclog.New(&hclog.LoggerOptions{Name: "provisioner." + cfg.Name, Output: log, Level: hclog.Warn}),
	})
	rpc, err := handshake(ctx, client, client.Kill)
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("starting provisioner plugin %s (%s): %w; check that the file is a Terraform provisioner plugin built for this platform%s", cfg.Name, cfg.Path, err, tail.suffix())
	}
	raw, err := rpc.Dispense("provisioner")
	if err != nil {
		client.Kill()
		return nil, fmt.Errorf("connecting to provisioner plugin %s: %w", cfg.Name, err)
	}
	p := &Provisioner{name: cfg.Name, client: client, c: raw.(tfplugin5.ProvisionerClient)}
	if err := p.readSchema(ctx); err != nil {
		client.Kill()
		return nil, err
	}
	return p, nil
}

func (p *Provisioner) readSchema(ctx context.Context) error {
	resp, err := p.c.GetSchema(ctx, &tfplugin5.GetProvisionerSchema_Request{})
	if err != nil {
		return fmt.Errorf("provisioner plugin %s: reading its schema: %w", p.name, err)
	}
	if err := p.diagnose("GetSchema", resp.Diagnostics); err != nil {
		return err
	}
	s, err := from5Schema(resp.Provisioner)
	if err != nil {
		return fmt.Errorf("provisioner plugin %s: its schema: %w", p.name, err)
	}
	p.schema = s.block
	return nil
}

// config encodes a configuration by the schema, or lists what does not fit.
func (p *Provisioner) config(cfg resource.Object) (dynamicValue, []provider.CheckFailure, error) {
	b := &configBuilder{strict: true}
	v := b.root(p.schema, cfg)
	if len(b.failures) > 0 {
		return dynamicValue{}, b.failures, nil
	}
	dv, err := encode(v, p.schema.impliedType())
	return dv, nil, err
}

// ValidateConfig checks cfg against the schema and asks the plugin.
func (p *Provisioner) ValidateConfig(ctx context.Context, req provider.ValidateProvisionerRequest) (provider.ValidateProvisionerResponse, error) {
	dv, fs, err := p.config(req.Config)
	if err != nil || len(fs) > 0 {
		return provider.ValidateProvisionerResponse{Failures: fs}, err
	}
	resp, err := p.c.ValidateProvisionerConfig(ctx, &tfplugin5.ValidateProvisionerConfig_Request{Config: to5Dynamic(dv)})
	if err != nil {
		return provider.ValidateProvisionerResponse{}, fmt.Errorf("provisioner plugin %s: ValidateProvisionerConfig: %w", p.name, err)
	}
	for _, d := range from5Diagnostics(resp.Diagnostics) {
		if d.severity == severityError {
			pd := publicDiagnostic(d)
			fs = append(fs, provider.CheckFailure{Property: pd.Property, Reason: joinNonEmpty(": ", pd.Summary, pd.Detail)})
		}
	}
	return provider.ValidateProvisionerResponse{Failures: fs}, nil
}

// Provision runs the plugin's ProvisionResource, sending each line of its
// output to req.Output.
func (p *Provisioner) Provision(ctx context.Context, req provider.ProvisionRequest) error {
	dv, fs, err := p.config(req.Config)
	if err == nil && len(fs) > 0 {
		err = fmt.Errorf("%s", fs[0])
	}
	if err != nil {
		return fmt.Errorf("provisioner plugin %s: %w", p.name, err)
	}
	conn, err := connection(req.Connection)
	if err != nil {
		return fmt.Errorf("provisioner plugin %s: connection: %w", p.name, err)
	}
	stream, err := p.c.ProvisionResource(ctx, &tfplugin5.ProvisionResource_Request{Config: to5Dynamic(dv), Connection: to5Dynamic(conn)})
	if err != nil {
		return fmt.Errorf("provisioner plugin %s: ProvisionResource: %w", p.name, err)
	}
	var diags []*tfplugin5.Diagnostic
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("provisioner plugin %s: ProvisionResource: %w", p.name, err)
		}
		if out := strings.TrimRight(resp.Output, "\n"); out != "" && req.Output != nil {
			for _, l := range strings.Split(out, "\n") {
				req.Output(l)
			}
		}
		diags = append(diags, resp.Diagnostics...)
	}
	return p.diagnose("ProvisionResource", diags)
}

// connection encodes a connection object as a dynamic value; none is null.
func connection(o resource.Object) (dynamicValue, error) {
	if o == nil {
		return encode(cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType)
	}
	v, err := naturalCty(resource.NewObject(o), nil)
	if err != nil {
		return dynamicValue{}, err
	}
	return encode(v, cty.DynamicPseudoType)
}

// Stop asks the plugin to end a running ProvisionResource.
func (p *Provisioner) Stop(ctx context.Context) error {
	resp, err := p.c.Stop(ctx, &tfplugin5.Stop_Request{})
	if err == nil && resp.Error != "" {
		err = errors.New(resp.Error)
	}
	return err
}

// Close ends the plugin process.
func (p *Provisioner) Close() error {
	p.client.Kill()
	return nil
}

func (p *Provisioner) diagnose(op string, ds []*tfplugin5.Diagnostic) error {
	var errs []string
	for _, d := range from5Diagnostics(ds) {
		if d.severity == severityError {
			errs = append(errs, publicDiagnostic(d).String())
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("provisioner plugin %s reported an error during %s: %s", p.name, op, strings.Join(errs, "; "))
}
