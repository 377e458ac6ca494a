package pulumirpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// Config says which plugin to launch and how. It is not modified after
// Launch is called.
type Config struct {
	// Name is the provider's package name, used in messages and logs.
	Name string
	// Path is the plugin binary.
	Path string
	// Args come before the engine address on the plugin's command line.
	Args []string
	// Env is the plugin's environment; nil means plinth's own.
	Env []string
	// Dir is the plugin's working directory; "" means plinth's own.
	Dir string
	// StartTimeout bounds the wait for the port and the first answer; if
	// zero, $PLINTH_PLUGIN_HANDSHAKE_TIMEOUT or 10 s (see
	// plugin.HandshakeTimeout).
	StartTimeout time.Duration
	// CloseGrace is how long Close waits for the plugin to exit after
	// asking it to before killing it; DefaultCloseGrace if zero.
	CloseGrace time.Duration
	// Log receives the plugin's output and engine log messages; if nil they
	// are written to stderr prefixed with the provider name.
	Log func(LogLine)
	// SchemaCache is the directory of the schema cache
	// (internal/plugin/schemacache); empty asks the plugin for its schema
	// every time.
	SchemaCache string
	// StderrLines is how many of the last stderr lines are kept for crash
	// reports; 20 if zero.
	StderrLines int
}

// DefaultCloseGrace is Config.CloseGrace's default.
const DefaultCloseGrace = 5 * time.Second

// withStartTimeout sets StartTimeout from the environment if it is zero.
func (c Config) withStartTimeout() (Config, error) {
	if c.StartTimeout > 0 {
		return c, nil
	}
	d, err := plugin.HandshakeTimeout(os.Getenv)
	c.StartTimeout = d
	return c, err
}

func (c *Config) startTimeout() time.Duration { return c.StartTimeout }

func (c *Config) closeGrace() time.Duration {
	if c.CloseGrace > 0 {
		return c.CloseGrace
	}
	return DefaultCloseGrace
}

func (c *Config) logger() func(LogLine) {
	if c.Log != nil {
		return c.Log
	}
	return func(l LogLine) { fmt.Fprintln(os.Stderr, l.String()) }
}

// Launch starts the plugin, waits for its port, connects and handshakes.
// The returned provider must be closed. An error names the binary and
// says what went wrong: the plugin exited (with its last stderr lines),
// printed something that is not a port, or did not answer in time.
func Launch(ctx context.Context, cfg Config) (*Provider, error) {
	cfg, err := cfg.withStartTimeout()
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	eng, err := startEngine(cfg.Name, cfg.logger())
	if err != nil {
		return nil, err
	}
	proc, err := startProcess(cfg, eng.addr)
	if err != nil {
		eng.stop()
		return nil, err
	}
	p, err := connect(ctx, cfg, proc, eng)
	if err != nil {
		proc.Stop(cfg.closeGrace())
		eng.stop()
		return nil, err
	}
	return p, nil
}

// startProcess starts the plugin with the collector setting chosen for
// its binary (gogc.go).
func startProcess(cfg Config, engineAddr string) (*process, error) {
	cache := schemacache.Cache{Dir: cfg.SchemaCache}
	key := grpcplugin.MemoryKey(cache.KnownSum(cfg.Path), cfg.Args)
	gc, err := grpcplugin.CollectorFor(cache, key, cfg.Env)
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	cmd := exec.Command(cfg.Path, append(append([]string(nil), cfg.Args...), engineAddr)...)
	cmd.Env, cmd.Dir = gc.Environ(cfg.Env), cfg.Dir
	// proc.Start gives it a process group of its own (a terminal's Ctrl-C
	// reaches plinth, which cancels and closes providers in order, not the
	// plugin directly) and ties it to plinth's life.
	keep := cfg.StderrLines
	if keep <= 0 {
		keep = 20
	}
	log := cfg.logger()
	pr, err := grpcplugin.Start(cmd, keep, func(stream, line string) {
		log(LogLine{Provider: cfg.Name, Stream: stream, Text: line})
	})
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	return &process{Process: pr, name: cfg.Name, path: cfg.Path, gc: gc, memKey: key}, nil
}

// connect reads the port, then forwards the rest of stdout, dials and
// waits for the plugin to answer.
func connect(ctx context.Context, cfg Config, proc *process, eng *engine) (*Provider, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.startTimeout())
	defer cancel()
	port, err := readPort(ctx, cfg, proc)
	if err == io.EOF {
		return nil, startFailure(cfg, proc)
	}
	if err != nil {
		return nil, err
	}
	conn, err := grpcplugin.Dial(cfg.Name, cfg.Path, port)
	if err != nil {
		return nil, err
	}
	p := newProvider(cfg, conn, proc, eng)
	if err := p.handshake(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return p, nil
}

// readPort waits for the plugin's first line of output, which must be its
// gRPC port.
func readPort(ctx context.Context, cfg Config, proc *process) (int, error) {
	select {
	case r := <-proc.FirstLine:
		if r.Err == io.EOF && r.Text == "" {
			return 0, io.EOF
		}
		if r.Err != nil && r.Err != io.EOF {
			return 0, fmt.Errorf("provider %s (%s): reading its port: %w", cfg.Name, cfg.Path, r.Err)
		}
		return grpcplugin.ParsePort(cfg.Name, cfg.Path, "Pulumi resource plugin", r.Text)
	case <-ctx.Done():
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			return 0, fmt.Errorf("provider %s (%s): starting it was cancelled: %w", cfg.Name, cfg.Path, err)
		}
		return 0, fmt.Errorf("provider %s (%s) did not print its port within %s: is it a Pulumi resource plugin? Set %s to wait longer; %s",
			cfg.Name, cfg.Path, cfg.startTimeout(), plugin.HandshakeTimeoutEnv, describeTail(proc.Tail.Get()))
	}
}

// startFailure explains a plugin whose output ended before its port: it
// exited, and its stderr usually says why.
func startFailure(cfg Config, proc *process) error {
	status := "it closed its output"
	if proc.HasExited(5 * time.Second) {
		status = "it exited (" + proc.ExitStatus() + ")"
	}
	return fmt.Errorf("provider %s (%s) did not start: %s before printing its port; %s",
		cfg.Name, cfg.Path, status, describeTail(proc.Tail.Get()))
}

// handshake waits for the plugin to answer and learns its features.
// A plugin that does not implement Handshake answers Unimplemented, which
// is enough to know it is up; its features come from Configure.
func (p *Provider) handshake(ctx context.Context) error {
	for {
		resp, err := p.client.Handshake(ctx, &pb.ProviderHandshakeRequest{
			EngineAddress:     p.engine.addr,
			AcceptsByteString: true,
		})
		switch status.Code(err) {
		case codes.OK:
			p.setFeatures(features{
				handshook:   true,
				secrets:     resp.GetAcceptSecrets(),
				resources:   resp.GetAcceptResources(),
				outputs:     resp.GetAcceptOutputs(),
				byteStrings: resp.GetAcceptsByteString(),
			})
			return nil
		case codes.Unimplemented:
			return nil
		case codes.Unavailable:
			if ctx.Err() == nil && !p.proc.HasExited(10*time.Millisecond) {
				continue // not listening yet
			}
		}
		return p.startError(err)
	}
}

func (p *Provider) startError(err error) error {
	if p.proc.HasExited(time.Second) {
		return fmt.Errorf("provider %s (%s) exited (%s) before answering: %s",
			p.name, p.proc.path, p.proc.ExitStatus(), describeTail(p.proc.Tail.Get()))
	}
	return fmt.Errorf("provider %s (%s) did not answer its first call: %v", p.name, p.proc.path, err)
}
