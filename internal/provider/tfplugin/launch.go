package tfplugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	plinthplugin "github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
	"github.com/plinth-iac/plinth/sdk/tfplugin6"
)

// Handshake is the go-plugin handshake Terraform providers expect. The
// protocol version is negotiated from VersionedPlugins (5 and 6).
var Handshake = plugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// terraformVersion is the Terraform version plinth claims to providers in
// Configure; providers use it only for user agents and compatibility notes.
const terraformVersion = "1.11.0"

// maxMessage is the largest gRPC message accepted or sent: big providers'
// schemas exceed gRPC's 4 MiB default (Terraform allows 256 MiB).
const maxMessage = 256 << 20

// Config describes one provider process. It is not modified after Start.
type Config struct {
	// Path is the provider executable, terraform-provider-<name>[_v<version>].
	Path string
	// Dir is the working directory of the process: the project directory, so
	// relative paths in configuration resolve as users expect.
	Dir string
	// Name is the provider's name (e.g. "random"), for messages and
	// GetPluginInfo; from the file name if empty.
	Name string
	// Version is the provider's semantic version; from the file name if
	// empty.
	Version string
	// Env holds extra environment variables (KEY=value) for the process.
	Env []string
	// Log receives the provider's log output and stray stderr; nil discards.
	Log io.Writer
	// Warn receives warnings the provider reports, formatted for users; nil
	// discards them.
	Warn func(message string)
	// SchemaCache is the directory of the schema cache (schemacache.go);
	// empty asks every provider for its schema on every start.
	SchemaCache string
	// StartTimeout bounds the wait for the provider's handshake; if zero,
	// $PLINTH_PLUGIN_HANDSHAKE_TIMEOUT or 10 s (plugin.HandshakeTimeout).
	StartTimeout time.Duration
}

func (c Config) startTimeout() (time.Duration, error) {
	if c.StartTimeout > 0 {
		return c.StartTimeout, nil
	}
	return plinthplugin.HandshakeTimeout(os.Getenv)
}

var binaryName = regexp.MustCompile(`^terraform-provider-([^_]+)(?:_v(.+?))?(?:\.exe)?$`)

// ParseBinaryName splits a provider file name,
// terraform-provider-<name>[_v<version>], into name and version.
func ParseBinaryName(file string) (name, version string, ok bool) {
	m := binaryName.FindStringSubmatch(filepath.Base(file))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// grpcPlugin5 and grpcPlugin6 are go-plugin's client-side view of a
// provider: they hand back the protocol's stubs.
type grpcPlugin5 struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin5) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("plinth only acts as a Terraform provider client")
}

func (grpcPlugin5) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &wire5{c: tfplugin5.NewProviderClient(c)}, nil
}

type grpcPlugin6 struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin6) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("plinth only acts as a Terraform provider client")
}

func (grpcPlugin6) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &wire6{c: tfplugin6.NewProviderClient(c)}, nil
}

// launch starts the process, with gcEnv (its collector setting, if not
// "") added to its environment, and returns its client, its runner and its
// protocol stubs. The handshake is bounded by the start timeout, and a
// cancelled ctx (a second Ctrl-C) ends it at once.
func launch(ctx context.Context, cfg Config, gcEnv string, tail *outputTail) (*plugin.Client, *procRunner, wire, error) {
	timeout, err := cfg.startTimeout()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("starting Terraform provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	tlsConf, certPEM, err := clientTLS()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("starting Terraform provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	cmd := exec.Command(cfg.Path)
	cmd.Dir = cfg.Dir
	cmd.Env = append(append([]string(nil), cfg.Env...), quietLogs(os.Environ(), cfg.Env)...)
	if gcEnv != "" {
		cmd.Env = append(cmd.Env, gcEnv)
	}
	cmd.Env = append(cmd.Env, clientCertEnv+"="+certPEM)
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	var run *procRunner
	makeRunner := newRunner(cmd)
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{
			5: {"provider": grpcPlugin5{}},
			6: {"provider": grpcPlugin6{}},
		},
		RunnerFunc: func(l hclog.Logger, c *exec.Cmd, dir string) (runner.Runner, error) {
			r, err := makeRunner(l, c, dir)
			run, _ = r.(*procRunner)
			return r, err
		},
		StartTimeout:     timeout,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		// Mutual TLS as AutoMTLS would set it up, with a cheaper key
		// (clientTLS); go-plugin adds the provider's certificate from
		// its handshake.
		TLSConfig:  tlsConf,
		Managed:    false,
		Stderr:     io.MultiWriter(tail, log),
		SyncStderr: io.MultiWriter(tail, log),
		SyncStdout: log,
		Logger:     hclog.New(&hclog.LoggerOptions{Name: "provider." + cfg.Name, Output: log, Level: hclog.Warn}),
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(maxMessage), grpc.MaxCallSendMsgSize(maxMessage)),
			// A fixed window, as on plinth's other plugin connections
			// (grpcplugin.Window says why): no PING per call.
			grpc.WithInitialWindowSize(grpcplugin.Window), grpc.WithInitialConnWindowSize(grpcplugin.Window)},
	})
	rpc, err := handshake(ctx, client, func() {
		if run != nil {
			_ = run.Kill(context.Background())
		}
	})
	if err != nil {
		client.Kill()
		return nil, nil, nil, startError(ctx, cfg, timeout, tail, err)
	}
	raw, err := rpc.Dispense("provider")
	if err != nil {
		client.Kill()
		return nil, nil, nil, fmt.Errorf("connecting to Terraform provider %s: %w", cfg.Name, err)
	}
	return client, run, raw.(wire), nil
}

// handshake starts the process and waits for go-plugin's handshake; if ctx
// ends first, kill ends the process, which ends the handshake.
func handshake(ctx context.Context, client *plugin.Client, kill func()) (plugin.ClientProtocol, error) {
	type result struct {
		rpc plugin.ClientProtocol
		err error
	}
	done := make(chan result, 1)
	go func() {
		rpc, err := client.Client()
		done <- result{rpc, err}
	}()
	select {
	case r := <-done:
		return r.rpc, r.err
	case <-ctx.Done():
		kill()
		<-done
		return nil, context.Cause(ctx)
	}
}

// startError explains a provider that did not start.
func startError(ctx context.Context, cfg Config, timeout time.Duration, tail *outputTail, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("starting Terraform provider %s (%s) was cancelled: %w", cfg.Name, cfg.Path, err)
	case strings.Contains(err.Error(), "timeout while waiting for plugin to start"):
		return fmt.Errorf("provider %s (%s) did not complete its handshake within %s: is it a Terraform provider? Set %s to wait longer%s",
			cfg.Name, cfg.Path, timeout, plinthplugin.HandshakeTimeoutEnv, tail.suffix())
	}
	return fmt.Errorf("starting Terraform provider %s (%s): %w; check that the file is a Terraform provider built for this platform%s",
		cfg.Name, cfg.Path, err, tail.suffix())
}

// Providers built on HashiCorp's SDKs log every RPC at trace level unless
// told otherwise; that costs more than the call itself. quietLogs lowers
// their levels unless the user asked for logs (TF_LOG or any of these).
var logLevels = [][2]string{
	{"TF_LOG_SDK", "off"}, {"TF_LOG_SDK_PROTO", "off"}, {"TF_LOG_SDK_FRAMEWORK", "off"},
	{"TF_LOG_SDK_HELPER_SCHEMA", "off"}, {"TF_LOG_PROVIDER", "warn"},
}

func quietLogs(envs ...[]string) []string {
	set := map[string]bool{}
	for _, env := range envs {
		for _, kv := range env {
			if k, _, ok := strings.Cut(kv, "="); ok {
				set[k] = true
			}
		}
	}
	if set["TF_LOG"] {
		return nil
	}
	var out []string
	for _, l := range logLevels {
		if !set[l[0]] {
			out = append(out, l[0]+"="+l[1])
		}
	}
	return out
}

// outputTail keeps the last lines a provider wrote to stderr, to explain a
// crash: at most tailLines of them and proc.TailBytes in all. Structured
// log lines (hclog's JSON, which go-plugin also routes to the logger) are
// left out: a crash is told by the rest.
type outputTail struct{ proc.Tail }

const tailLines = 40

func newOutputTail() *outputTail {
	return &outputTail{proc.Tail{Lines: tailLines, Skip: func(line string) bool { return strings.HasPrefix(line, `{"@`) }}}
}

// suffix renders the tail for an error message, or "" if there is none.
func (t *outputTail) suffix() string {
	lines := t.Get()
	if len(lines) == 0 {
		return ""
	}
	return "\nThe provider's last output was:\n" + strings.Join(lines, "\n")
}

// noAnswer reports whether a failed call ended without the provider's
// answer: the process is gone, the connection broke, the call ran out of
// time or was cancelled, or gRPC could not read the answer. An error
// status a live provider returned is its answer.
func (p *Provider) noAnswer(err error) bool {
	st := status.Convert(err)
	switch st.Code() {
	case codes.Unavailable, codes.Canceled, codes.DeadlineExceeded:
		return true
	case codes.Internal, codes.ResourceExhausted:
		if strings.HasPrefix(st.Message(), "grpc: ") {
			return true
		}
	}
	return p.client.Exited()
}

// withTimeout bounds a call by a resource timeout, with a quarter more, as
// for Pulumi-protocol plugins; no timeout leaves the call unbounded.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d+d/4)
}

// rpcError explains a failed gRPC call: a crash (the process is gone or the
// connection broke) with the provider's last output, anything else as the
// provider's error.
func (p *Provider) rpcError(op string, err error) error {
	if err == nil {
		return nil
	}
	code := status.Code(err)
	if p.client.Exited() || code == codes.Unavailable {
		// The process is gone or unreachable: reap it, which also waits
		// for its last output.
		p.client.Kill()
		return fmt.Errorf("provider %s crashed during %s: %w%s", p.cfg.Name, op, err, p.tail.suffix())
	}
	switch code {
	case codes.DeadlineExceeded:
		return fmt.Errorf("provider %s did not finish %s in time: %w", p.cfg.Name, op, err)
	case codes.Canceled:
		return fmt.Errorf("provider %s: %s was cancelled: %w", p.cfg.Name, op, err)
	}
	if code == codes.Unimplemented {
		return fmt.Errorf("provider %s does not implement %s (protocol %d): %w", p.cfg.Name, op, p.protocol, err)
	}
	return fmt.Errorf("provider %s failed during %s: %w", p.cfg.Name, op, err)
}
