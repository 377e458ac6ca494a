package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
)

// Config says which language host to start and how. It is not modified
// after Start.
type Config struct {
	// Runtime is the runtime's name ("yaml"), for messages.
	Runtime string
	// Path is the plugin binary.
	Path string
	// EngineAddr is the engine service's address (host:port), the
	// plugin's last argument; it serves the plugin's log messages.
	EngineAddr string
	// Dir is the plugin's working directory (the project's).
	Dir string
	// Env is its environment; nil means plinth's own.
	Env []string
	// StartTimeout bounds the wait for its port and first answer.
	StartTimeout time.Duration
	// Output receives each line the plugin writes after its port, with
	// its stream ("stdout" or "stderr"); nil drops them.
	Output func(stream, line string)
}

// Client is a running language host. Close ends it.
type Client struct {
	cfg    Config
	proc   *grpcplugin.Process
	conn   *grpc.ClientConn
	client pb.LanguageRuntimeClient
}

// stderrLines is how many of the plugin's last stderr lines a crash
// report shows.
const stderrLines = 20

// closeGrace is how long Close waits for the plugin to exit on SIGTERM.
const closeGrace = 3 * time.Second

// Start starts the plugin and waits for its port. An error names the
// plugin and says what went wrong: it exited (how, and its last stderr
// lines), printed something that is not a port, or printed nothing in
// time.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	cmd := exec.Command(cfg.Path, cfg.EngineAddr)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	out := cfg.Output
	if out == nil {
		out = func(string, string) {}
	}
	pr, err := grpcplugin.Start(cmd, stderrLines, out)
	if err != nil {
		return nil, fmt.Errorf("starting the %s language host %s: %w", cfg.Runtime, cfg.Path, err)
	}
	c := &Client{cfg: cfg, proc: pr}
	if err := c.connect(ctx); err != nil {
		pr.Stop(closeGrace)
		return nil, err
	}
	return c, nil
}

// connect reads the port and dials it.
func (c *Client) connect(ctx context.Context) error {
	timeout := c.startTimeout()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var line grpcplugin.Line
	select {
	case line = <-c.proc.FirstLine:
	case <-t.C:
		return fmt.Errorf("the %s language host %s did not print its port within %s: is it a Pulumi language plugin? Set %s to wait longer; %s",
			c.cfg.Runtime, c.cfg.Path, timeout, plugin.HandshakeTimeoutEnv, grpcplugin.DescribeTail(c.proc.Tail.Get(), "  "))
	case <-ctx.Done():
		return fmt.Errorf("starting the %s language host was cancelled: %w", c.cfg.Runtime, ctx.Err())
	}
	if line.Err == io.EOF && line.Text == "" {
		return c.startFailure()
	}
	port, err := grpcplugin.ParsePort(Binary(c.cfg.Runtime), c.cfg.Path, "Pulumi language plugin", line.Text)
	if err != nil {
		return err
	}
	if c.conn, err = grpcplugin.Dial(Binary(c.cfg.Runtime), c.cfg.Path, port); err != nil {
		return err
	}
	c.client = pb.NewLanguageRuntimeClient(c.conn)
	return nil
}

// startFailure explains a plugin whose output ended before its port.
func (c *Client) startFailure() error {
	how := "it closed its output"
	if c.proc.HasExited(5 * time.Second) {
		how = "it exited (" + c.proc.ExitStatus() + ")"
	}
	return fmt.Errorf("the %s language host %s did not start: %s before printing its port; %s",
		c.cfg.Runtime, c.cfg.Path, how, grpcplugin.DescribeTail(c.proc.Tail.Get(), "  "))
}

// Close ends the plugin: SIGTERM, then SIGKILL after a grace period,
// and then whatever it started that is still running (on Linux): the
// providers a host started itself are in process groups of their own.
func (c *Client) Close() {
	if c.conn != nil {
		c.conn.Close()
	}
	below := descendants(c.proc.Proc.Cmd.Process.Pid)
	c.proc.Stop(closeGrace)
	killLeft(below)
}

// ProgramInfo says where a program is, as the protocol's ProgramInfo.
type ProgramInfo struct {
	// RootDir holds Pulumi.yaml; ProgramDir the program (RootDir, or its
	// main directory); EntryPoint is the program's file relative to
	// ProgramDir, "." for the directory itself.
	RootDir, ProgramDir, EntryPoint string
	// Options are the runtime options of Pulumi.yaml.
	Options map[string]any
}

func (i ProgramInfo) proto() (*pb.ProgramInfo, error) {
	opts, err := structpb.NewStruct(i.Options)
	if err != nil {
		return nil, fmt.Errorf("the runtime options in Pulumi.yaml: %w", err)
	}
	return &pb.ProgramInfo{RootDirectory: i.RootDir, ProgramDirectory: i.ProgramDir, EntryPoint: i.EntryPoint, Options: opts}, nil
}

// Handshake tells the plugin the engine's address and where the program
// is, waiting for its answer no longer than StartTimeout. A plugin
// without Handshake (older ones) is not an error.
func (c *Client) Handshake(ctx context.Context, info ProgramInfo) error {
	timeout := c.startTimeout()
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := c.client.Handshake(hctx, &pb.LanguageHandshakeRequest{
		EngineAddress: c.cfg.EngineAddr, RootDirectory: &info.RootDir, ProgramDirectory: &info.ProgramDir,
	})
	switch {
	case status.Code(err) == codes.Unimplemented:
		return nil
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case status.Code(err) == codes.DeadlineExceeded:
		return fmt.Errorf("the %s language host %s did not answer Handshake within %s (set %s to wait longer); %s", c.cfg.Runtime, c.cfg.Path, timeout,
			plugin.HandshakeTimeoutEnv, grpcplugin.DescribeTail(c.proc.Tail.Get(), "  "))
	}
	return c.callError("Handshake", err)
}

// startTimeout is Config.StartTimeout, 10 s if unset.
func (c *Client) startTimeout() time.Duration {
	if c.cfg.StartTimeout > 0 {
		return c.cfg.StartTimeout
	}
	return 10 * time.Second
}

// Package is a provider package a program needs.
type Package struct {
	Name, Version string
	// Server is where the plugin can be downloaded from, if the program
	// says.
	Server string
	// Parameterized is set for a parameterized package: Name is then the
	// package the program uses, Base the plugin that serves it.
	Parameterized bool
	Base          string
}

// RequiredPackages asks the plugin which provider packages the program
// needs: GetRequiredPackages, or GetRequiredPlugins where the plugin is
// older than it.
func (c *Client) RequiredPackages(ctx context.Context, info ProgramInfo) ([]Package, error) {
	pi, err := info.proto()
	if err != nil {
		return nil, err
	}
	resp, err := c.client.GetRequiredPackages(ctx, &pb.GetRequiredPackagesRequest{Info: pi})
	if status.Code(err) == codes.Unimplemented {
		return c.requiredPlugins(ctx, pi)
	}
	if err != nil {
		return nil, c.callError("GetRequiredPackages", err)
	}
	var out []Package
	for _, d := range resp.GetPackages() {
		p := Package{Name: d.GetName(), Version: d.GetVersion(), Server: d.GetServer()}
		if par := d.GetParameterization(); par != nil {
			p.Parameterized, p.Base, p.Name, p.Version = true, p.Name, par.GetName(), par.GetVersion()
		}
		out = append(out, p)
	}
	return out, nil
}

func (c *Client) requiredPlugins(ctx context.Context, pi *pb.ProgramInfo) ([]Package, error) {
	//lint:ignore SA1019 the fallback for language hosts older than GetRequiredPackages
	resp, err := c.client.GetRequiredPlugins(ctx, &pb.GetRequiredPluginsRequest{Info: pi})
	if err != nil {
		return nil, c.callError("GetRequiredPlugins", err)
	}
	var out []Package
	for _, d := range resp.GetPlugins() {
		if d.GetKind() == "resource" {
			out = append(out, Package{Name: d.GetName(), Version: d.GetVersion(), Server: d.GetServer()})
		}
	}
	return out, nil
}

// InstallDependencies asks the plugin to install the program's
// dependencies (pip, dotnet restore, mvn...), writing what the tools print
// to stdout and stderr.
func (c *Client) InstallDependencies(ctx context.Context, info ProgramInfo, stdout, stderr io.Writer) error {
	pi, err := info.proto()
	if err != nil {
		return err
	}
	req := &pb.InstallDependenciesRequest{Info: pi, IsTerminal: false}
	//lint:ignore SA1019 older language hosts read the directory from here
	req.Directory = info.ProgramDir
	stream, err := c.client.InstallDependencies(ctx, req)
	if err != nil {
		return c.callError("InstallDependencies", err)
	}
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return c.callError("InstallDependencies", err)
		}
		_, _ = stdout.Write(msg.GetStdout())
		_, _ = stderr.Write(msg.GetStderr())
	}
}

// RunRequest is what a program run is given.
type RunRequest struct {
	Info                         ProgramInfo
	MonitorAddr                  string
	Project, Stack, Organization string
	Config                       map[string]string
	SecretKeys                   []string
	DryRun                       bool
	Parallel                     int
}

// ErrBail is a program that failed after reporting why through the
// engine (RunResponse.bail): there is nothing more to say.
var ErrBail = errors.New("its language host reported the errors above")

// Run runs the program and waits for it to end. A program error (the
// plugin's RunResponse.error) is a *ProgramError; one the program has
// already reported is ErrBail.
func (c *Client) Run(ctx context.Context, req RunRequest) error {
	pi, err := req.Info.proto()
	if err != nil {
		return err
	}
	run := &pb.RunRequest{
		MonitorAddress: req.MonitorAddr, Pwd: req.Info.ProgramDir,
		Project: req.Project, Stack: req.Stack, Organization: req.Organization,
		Config: req.Config, ConfigSecretKeys: req.SecretKeys, DryRun: req.DryRun, Parallel: int32(req.Parallel),
		Info: pi,
	}
	//lint:ignore SA1019 older language hosts read the entry point from here, as Pulumi's engine still sends it
	run.Program = req.Info.EntryPoint
	resp, err := c.client.Run(ctx, run)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.callError("Run", err)
	}
	switch {
	case resp.GetError() != "":
		return &ProgramError{Runtime: c.cfg.Runtime, Dir: req.Info.RootDir, Message: resp.GetError()}
	case resp.GetBail():
		return ErrBail
	}
	return nil
}

// ProgramError is a program that failed, as its language host said.
type ProgramError struct {
	Runtime, Dir, Message string
}

func (e *ProgramError) Error() string {
	return fmt.Sprintf("the %s program in %s failed: %s", describe(e.Runtime), e.Dir, e.Message)
}

// callError explains a failed call: a plugin that crashed says how it
// ended and what it last wrote.
func (c *Client) callError(method string, err error) error {
	if err == nil {
		return nil
	}
	// Only a broken connection can be a crash; a plugin that answered
	// with an error is alive and is not waited for.
	st := status.Convert(err)
	if st.Code() == codes.Unavailable && c.proc.HasExited(5*time.Second) {
		return fmt.Errorf("the %s language host %s crashed during %s: %s; %s",
			c.cfg.Runtime, c.cfg.Path, method, c.proc.ExitStatus(), grpcplugin.DescribeTail(c.proc.Tail.Get(), "  "))
	}
	if st.Code() == codes.Unimplemented {
		return fmt.Errorf("the %s language host %s does not implement %s: %s", c.cfg.Runtime, c.cfg.Path, method, st.Message())
	}
	return fmt.Errorf("the %s language host %s: %s failed: %s", c.cfg.Runtime, c.cfg.Path, method, st.Message())
}
