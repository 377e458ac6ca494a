package mu

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
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
	// SchemaCache is the directory of the schema cache
	// (internal/plugin/schemacache), which keeps the memory the plugin's
	// binary used, from which its GOGC is chosen (gogc.go); empty leaves
	// it at Go's default.
	SchemaCache string
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
		pr.Stop(cfg.closeGrace())
		return nil, err
	}
	conn, err := grpcplugin.Dial(cfg.Name, cfg.Path, port)
	if err != nil {
		pr.Stop(cfg.closeGrace())
		return nil, err
	}
	return &Provider{cfg: cfg, conn: conn, client: mupb.NewResourceProviderClient(conn), proc: pr}, nil
}

func (c Config) closeGrace() time.Duration {
	if c.CloseGrace > 0 {
		return c.CloseGrace
	}
	return 5 * time.Second
}

// process is a running plugin: the port line, its stderr tail and its
// end, and what its memory is recorded by (gogc.go).
type process struct {
	*grpcplugin.Process
	mem memoryRecord
}

// startProcess starts the plugin with the collector setting chosen for
// its binary.
func startProcess(cfg Config) (*process, error) {
	mem, err := newMemoryRecord(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Env, cmd.Dir = mem.gc.Environ(cfg.Env), cfg.Dir
	pr, err := grpcplugin.Start(cmd, 20, func(_, line string) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "[%s] %s\n", cfg.Name, line)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("starting provider %s (%s): %w", cfg.Name, cfg.Path, err)
	}
	return &process{Process: pr, mem: mem}, nil
}

// readPort waits for the first line of stdout, which must be the port.
func (p *process) readPort(ctx context.Context, cfg Config) (int, error) {
	t := time.NewTimer(cfg.StartTimeout)
	defer t.Stop()
	var line grpcplugin.Line
	select {
	case line = <-p.FirstLine:
	case <-ctx.Done():
		return 0, fmt.Errorf("provider %s (%s): starting it was cancelled: %w", cfg.Name, cfg.Path, ctx.Err())
	case <-t.C:
		return 0, fmt.Errorf("provider %s (%s) did not print its port within %s: is it a Mu resource provider? Set %s to wait longer; %s",
			cfg.Name, cfg.Path, cfg.StartTimeout, plugin.HandshakeTimeoutEnv, p.describeTail())
	}
	if strings.TrimSpace(line.Text) == "" {
		p.HasExited(5 * time.Second)
		return 0, fmt.Errorf("provider %s (%s) did not start: %s before printing its port; %s",
			cfg.Name, cfg.Path, p.exitStatus(), p.describeTail())
	}
	return grpcplugin.ParsePort(cfg.Name, cfg.Path, "Mu resource provider", line.Text)
}

// exitStatus says how the plugin ended, for messages.
func (p *process) exitStatus() string {
	if !p.HasExited(0) {
		return "it closed its output"
	}
	s := p.ExitStatus()
	switch {
	case strings.HasPrefix(s, "killed by signal "):
		return "it was " + s
	case strings.HasPrefix(s, "exit status "):
		return "it exited with status " + strings.TrimPrefix(s, "exit status ")
	}
	return "it exited: " + s
}

func (p *process) describeTail() string {
	return grpcplugin.DescribeTail(p.Tail.Get(), "  ")
}
