package mu

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
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/provider/mu/mupb"
)

// Config says which plugin to launch and how. It is not modified after
// Launch is called.
type Config struct {
	// Name is the provider's package name, used in messages and logs.
	Name string
	// Version is the plugin's version when its file name gives one.
	Version string
	// Path is the plugin binary.
	Path string
	// Args are the plugin's command-line arguments.
	Args []string
	// Env is the plugin's environment; nil means plinth's own.
	Env []string
	// Dir is the plugin's working directory; "" means plinth's own.
	Dir string
	// StartTimeout bounds the wait for the port; if zero,
	// $PLINTH_PLUGIN_HANDSHAKE_TIMEOUT or 10 s (see plugin.HandshakeTimeout).
	StartTimeout time.Duration
	// CloseGrace is how long Close waits for the plugin to exit after
	// SIGTERM before killing it; 5 s if zero.
	CloseGrace time.Duration
	// Log receives each line the plugin writes after its port, prefixed
	// with the provider's name; nil discards them.
	Log io.Writer
}

// Launch starts the plugin, reads its port and connects. The returned
// provider must be closed. An error names the binary and says what went
// wrong: it exited (with its last stderr lines), printed something that
// is not a port, or did not print one in time.
func Launch(ctx context.Context, cfg Config) (*Provider, error) {
	if cfg.StartTimeout <= 0 {
		d, err := plugin.HandshakeTimeout(os.Getenv)
		if err != nil {
			return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
		}
		cfg.StartTimeout = d
	}
	pr, err := startProcess(cfg)
	if err != nil {
		return nil, err
	}
	port, err := pr.readPort(ctx, cfg)
	if err != nil {
		pr.stop(cfg.closeGrace())
		return nil, err
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(400<<20), grpc.MaxCallSendMsgSize(400<<20)))
	if err != nil {
		pr.stop(cfg.closeGrace())
		return nil, fmt.Errorf("provider %s (%s): connecting to port %d: %w", cfg.Name, cfg.Path, port, err)
	}
	return &Provider{cfg: cfg, conn: conn, client: mupb.NewResourceProviderClient(conn), proc: pr}, nil
}

func (c Config) closeGrace() time.Duration {
	if c.CloseGrace > 0 {
		return c.CloseGrace
	}
	return 5 * time.Second
}

// process is a running plugin: the port line, its stderr tail and its end.
type process struct {
	proc      *proc.Process
	tail      *proc.Tail
	firstLine chan string // the first line of stdout ("" if none)
	exited    chan struct{}
	drained   sync.WaitGroup
}

func startProcess(cfg Config) (*process, error) {
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Env, cmd.Dir = cfg.Env, cfg.Dir
	pr, err := proc.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	p := &process{proc: pr, tail: &proc.Tail{Lines: 20}, firstLine: make(chan string, 1), exited: make(chan struct{})}
	p.drained.Add(2)
	go func() {
		br := bufio.NewReaderSize(pr.Stdout, proc.LineBytes)
		line, _ := br.ReadString('\n')
		p.firstLine <- line
		p.forward(cfg, br, nil)
	}()
	go p.forward(cfg, pr.Stderr, p.tail)
	go func() {
		pr.Wait()
		p.drained.Wait()
		close(p.exited)
	}()
	return p, nil
}

// forward copies the plugin's lines to the log (and the tail), reading to
// the end so the plugin never blocks on a full pipe.
func (p *process) forward(cfg Config, r io.Reader, tail *proc.Tail) {
	defer p.drained.Done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), proc.LineBytes)
	for sc.Scan() {
		if tail != nil {
			tail.Write(append(sc.Bytes(), '\n'))
		}
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "[%s] %s\n", cfg.Name, sc.Text())
		}
	}
	io.Copy(io.Discard, r)
}

// readPort waits for the first line of stdout, which must be the port.
func (p *process) readPort(ctx context.Context, cfg Config) (int, error) {
	t := time.NewTimer(cfg.StartTimeout)
	defer t.Stop()
	var line string
	select {
	case line = <-p.firstLine:
	case <-ctx.Done():
		return 0, fmt.Errorf("provider %s (%s): starting it was cancelled: %w", cfg.Name, cfg.Path, ctx.Err())
	case <-t.C:
		return 0, fmt.Errorf("provider %s (%s) did not print its port within %s: is it a Mu resource provider? Set %s to wait longer; %s",
			cfg.Name, cfg.Path, cfg.StartTimeout, plugin.HandshakeTimeoutEnv, p.describeTail())
	}
	s := strings.TrimSpace(line)
	if s == "" {
		p.hasExited(5 * time.Second)
		return 0, fmt.Errorf("provider %s (%s) did not start: %s before printing its port; %s",
			cfg.Name, cfg.Path, p.exitStatus(), p.describeTail())
	}
	port, err := strconv.Atoi(s)
	if err != nil || port <= 0 || port > 65535 {
		if len(s) > 80 {
			s = s[:80] + "..."
		}
		return 0, fmt.Errorf("provider %s (%s) printed %q where its gRPC port should be: it is not a Mu resource provider, or it wrote to stdout before its port",
			cfg.Name, cfg.Path, s)
	}
	return port, nil
}

// hasExited reports whether the plugin has exited, waiting up to grace.
func (p *process) hasExited(grace time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	if grace <= 0 {
		return false
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus says how the plugin ended, for messages.
func (p *process) exitStatus() string {
	if !p.hasExited(0) {
		return "it closed its output"
	}
	var ee *exec.ExitError
	err := p.proc.Wait()
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "it was killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("it exited with status %d", ee.ExitCode())
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return "it exited: " + err.Error()
	}
	return "it exited with status 0"
}

func (p *process) describeTail() string {
	lines := p.tail.Get()
	if len(lines) == 0 {
		return "it wrote nothing to stderr"
	}
	return "its last stderr lines:\n  " + strings.Join(lines, "\n  ")
}

// stop asks the plugin to exit, then kills it after grace.
func (p *process) stop(grace time.Duration) {
	if !p.hasExited(0) {
		_ = p.proc.Signal(syscall.SIGTERM)
		p.hasExited(grace)
	}
	_ = p.proc.Kill()
	<-p.exited
}
