package pulumirpc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider is a Pulumi-protocol plugin seen through provider.Provider. It
// is safe for concurrent use.
type Provider struct {
	name       string
	conn       *grpc.ClientConn
	client     pb.ResourceProviderClient
	proc       *process // nil for a provider on a connection it did not start
	engine     *engine
	closeGrace time.Duration
	// schemas, path and args find the plugin's entry in the schema cache.
	schemas schemacache.Cache
	path    string
	args    []string

	mu   sync.RWMutex
	feat features

	closeOnce sync.Once
	closeErr  error
	closed    atomic.Bool
}

var _ provider.Provider = (*Provider)(nil)

// features is what the plugin accepts, learned from Handshake and
// Configure. configured is set once Configure ran; known is false when the
// configuration held unknowns, so the plugin was never really configured.
type features struct {
	handshook   bool
	secrets     bool
	resources   bool
	outputs     bool
	byteStrings bool
	preview     bool
	configured  bool
	unknown     bool
}

func newProvider(cfg Config, conn *grpc.ClientConn, proc *process, eng *engine) *Provider {
	return &Provider{
		name: cfg.Name, conn: conn, client: pb.NewResourceProviderClient(conn),
		proc: proc, engine: eng, closeGrace: cfg.closeGrace(),
		schemas: schemacache.Cache{Dir: cfg.SchemaCache}, path: cfg.Path, args: cfg.Args,
	}
}

// Dial makes a Provider of a plugin already listening at addr (a plugin
// started by hand for debugging, say). Close closes the connection only.
func Dial(ctx context.Context, name, addr string) (*Provider, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("provider %s: connecting to %s: %w", name, addr, err)
	}
	p := newProvider(Config{Name: name}, conn, nil, &engine{})
	if err := p.handshake(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return p, nil
}

func (p *Provider) features() features {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.feat
}

func (p *Provider) setFeatures(f features) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.feat = f
}

// sendOptions encodes values for what the plugin accepts.
func (p *Provider) sendOptions() pulumiwire.Options {
	f := p.features()
	return pulumiwire.Options{Secrets: f.secrets, Resources: f.resources, ByteStrings: f.byteStrings}
}

// configOptions encodes configuration: Pulumi engines always send it with
// secrets and references kept, before any feature is known.
func (p *Provider) configOptions() pulumiwire.Options {
	return pulumiwire.Options{Secrets: true, Resources: true, ByteStrings: p.features().byteStrings}
}

// receiveOptions decodes what the plugin sends: it may use every form.
func receiveOptions(preview bool) pulumiwire.Options {
	o := pulumiwire.Full()
	o.RejectUnknowns = !preview
	return o
}

// encodeOrEmpty encodes an object, sending an empty one for nil, as peers
// expect of olds.
func encodeOrEmpty(o resource.Object, opts pulumiwire.Options) (*structpb.Struct, error) {
	if o == nil {
		o = resource.Object{}
	}
	return pulumiwire.EncodeObject(o, opts)
}

// withTimeout bounds a call by its resource timeout, with a quarter more
// so that a provider that honours the timeout reports it itself. Without
// a timeout the call runs in ctx as it is: the call's own context (gRPC
// makes one per call) ends with it.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d+d/4)
}

// GetPluginInfo implements provider.Provider.
func (p *Provider) GetPluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	resp, err := p.client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil {
		return provider.PluginInfo{}, p.callError(ctx, "GetPluginInfo", "", 0, err)
	}
	return provider.PluginInfo{Name: p.name, Version: resp.GetVersion()}, nil
}

// GetSchema implements provider.Provider: from the schema cache when it
// holds this binary's answer, else from the plugin, whose answer it keeps.
// A plugin's schema depends on its binary and arguments only: plinth never
// parameterizes a plugin.
func (p *Provider) GetSchema(ctx context.Context, _ provider.GetSchemaRequest) (provider.GetSchemaResponse, error) {
	entry := p.schemaEntry()
	if raw, ok := p.schemas.Get(entry); ok {
		if s, err := p.decodeSchema(raw); err == nil {
			return provider.GetSchemaResponse{Schema: s}, nil
		}
	}
	resp, err := p.client.GetSchema(ctx, &pb.GetSchemaRequest{})
	if err != nil {
		return provider.GetSchemaResponse{}, p.callError(ctx, "GetSchema", "", 0, err)
	}
	s, err := p.decodeSchema([]byte(resp.GetSchema()))
	if err != nil {
		return provider.GetSchemaResponse{}, err
	}
	p.schemas.Put(entry, []byte(resp.GetSchema()))
	return provider.GetSchemaResponse{Schema: s}, nil
}

// decodeSchema reads a plugin's JSON package schema.
func (p *Provider) decodeSchema(raw []byte) (*schema.Schema, error) {
	var spec packageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("provider %s returned a schema that is not valid JSON: %w", p.name, err)
	}
	return spec.toSchema(), nil
}

// schemaEntry names the plugin's schema cache entry: its binary's checksum
// and its arguments; "" (no caching) for a plugin plinth did not start or
// whose binary cannot be read.
func (p *Provider) schemaEntry() string {
	if p.path == "" {
		return ""
	}
	sum := p.schemas.Sum(p.path)
	if sum == "" {
		return ""
	}
	args := sha256.Sum256([]byte(strings.Join(p.args, "\x00")))
	return sum + "-" + hex.EncodeToString(args[:8]) + ".pulumi.json"
}

// SignalCancellation implements provider.Provider: it sends Cancel, which
// asks the plugin to stop outstanding work.
func (p *Provider) SignalCancellation(ctx context.Context) error {
	if _, err := p.client.Cancel(ctx, &emptypb.Empty{}); err != nil {
		return p.callError(ctx, "Cancel", "", 0, err)
	}
	return nil
}

// Close implements provider.Provider: it closes the connection, asks the
// plugin to exit and kills it if it has not within the grace period.
func (p *Provider) Close() error {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		var peak uint64
		if p.proc != nil {
			peak = grpcplugin.PeakRSS(p.proc.Proc)
		}
		p.closeErr = p.conn.Close()
		if p.proc != nil {
			p.proc.Stop(p.closeGrace)
			p.recordMemory(peak)
		}
		if p.engine != nil && p.engine.server != nil {
			p.engine.stop()
		}
	})
	return p.closeErr
}

// Stderr returns the last lines the plugin wrote to stderr.
func (p *Provider) Stderr() []string {
	if p.proc == nil {
		return nil
	}
	return p.proc.Tail.Get()
}
