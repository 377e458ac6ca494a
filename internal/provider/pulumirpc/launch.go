package pulumirpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
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
		proc.stop(cfg.closeGrace())
		eng.stop()
		return nil, err
	}
	return p, nil
}

func startProcess(cfg Config, engineAddr string) (*process, error) {
	cmd := exec.Command(cfg.Path, append(append([]string(nil), cfg.Args...), engineAddr)...)
	cmd.Env, cmd.Dir = cfg.Env, cfg.Dir
	// proc.Start gives it a process group of its own (a terminal's Ctrl-C
	// reaches plinth, which cancels and closes providers in order, not the
	// plugin directly) and ties it to plinth's life.
	pr, err := proc.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	keep := cfg.StderrLines
	if keep <= 0 {
		keep = 20
	}
	p := &process{name: cfg.Name, path: cfg.Path, proc: pr, log: cfg.logger(), exited: make(chan struct{}),
		tail: &proc.Tail{Lines: keep}, firstLine: make(chan lineResult, 1)}
	p.drained.Add(2)
	go p.forward(pr.Stderr, "stderr")
	go p.readStdout(bufio.NewReaderSize(pr.Stdout, proc.LineBytes))
	go p.wait()
	return p, nil
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
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(400*1024*1024), grpc.MaxCallSendMsgSize(400*1024*1024)))
	if err != nil {
		return nil, fmt.Errorf("provider %s (%s): connecting to port %d: %w", cfg.Name, cfg.Path, port, err)
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
	case r := <-proc.firstLine:
		if r.err == io.EOF && r.line == "" {
			return 0, io.EOF
		}
		if r.err != nil && r.err != io.EOF {
			return 0, fmt.Errorf("provider %s (%s): reading its port: %w", cfg.Name, cfg.Path, r.err)
		}
		return parsePort(cfg, r.line)
	case <-ctx.Done():
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			return 0, fmt.Errorf("provider %s (%s): starting it was cancelled: %w", cfg.Name, cfg.Path, err)
		}
		return 0, fmt.Errorf("provider %s (%s) did not print its port within %s: is it a Pulumi resource plugin? Set %s to wait longer; %s",
			cfg.Name, cfg.Path, cfg.startTimeout(), plugin.HandshakeTimeoutEnv, describeTail(proc.stderrTail()))
	}
}

// startFailure explains a plugin whose output ended before its port: it
// exited, and its stderr usually says why.
func startFailure(cfg Config, proc *process) error {
	status := "it closed its output"
	if proc.hasExited(5 * time.Second) {
		status = "it exited (" + proc.exitStatus() + ")"
	}
	return fmt.Errorf("provider %s (%s) did not start: %s before printing its port; %s",
		cfg.Name, cfg.Path, status, describeTail(proc.stderrTail()))
}

func parsePort(cfg Config, line string) (int, error) {
	s := strings.TrimSpace(line)
	port, err := strconv.Atoi(s)
	if err != nil || port <= 0 || port > 65535 {
		if len(s) > 80 {
			s = s[:80] + "..."
		}
		return 0, fmt.Errorf("provider %s (%s) printed %q where its gRPC port should be: it is not a Pulumi resource plugin, or it wrote to stdout before its port",
			cfg.Name, cfg.Path, s)
	}
	return port, nil
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
			if ctx.Err() == nil && !p.proc.hasExited(10*time.Millisecond) {
				continue // not listening yet
			}
		}
		return p.startError(err)
	}
}

func (p *Provider) startError(err error) error {
	if p.proc.hasExited(time.Second) {
		return fmt.Errorf("provider %s (%s) exited (%s) before answering: %s",
			p.name, p.proc.path, p.proc.exitStatus(), describeTail(p.proc.stderrTail()))
	}
	return fmt.Errorf("provider %s (%s) did not answer its first call: %v", p.name, p.proc.path, err)
}
