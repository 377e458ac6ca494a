package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The fake language host: this test binary, run as pulumi-language-fake
// with fakeMode set, serves the LanguageRuntime protocol the way the mode
// says, so the tests see a real plugin process over real gRPC.
const (
	fakeMode   = "PLINTH_TEST_FAKE_LANGHOST"
	fakeRecord = "PLINTH_TEST_FAKE_RECORD"
	// fakeAsked, if set, is a file the fake adds a line to for each
	// GetRequiredPackages it answers.
	fakeAsked = "PLINTH_TEST_FAKE_ASKED"
)

// recorded is what the fake writes to $PLINTH_TEST_FAKE_RECORD in Run.
type recorded struct {
	Args             []string
	Path             string
	Handshake        handshake
	Monitor          string
	Project, Stack   string
	Organization     string
	Config           map[string]string
	SecretKeys       []string
	DryRun           bool
	Parallel         int32
	Root, ProgramDir string
	EntryPoint       string
	Options          map[string]any
}

type handshake struct{ Engine, Root, Program string }

func serveFake(mode string) {
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "fake: cannot start, no interpreter")
		os.Exit(3)
	case "silent":
		fmt.Fprintln(os.Stderr, "fake: thinking")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := grpc.NewServer()
	pb.RegisterLanguageRuntimeServer(srv, &fake{mode: mode})
	fmt.Println(lis.Addr().(*net.TCPAddr).Port)
	_ = srv.Serve(lis)
}

type fake struct {
	pb.UnimplementedLanguageRuntimeServer
	mode string
	hs   handshake
}

func (f *fake) Handshake(ctx context.Context, req *pb.LanguageHandshakeRequest) (*pb.LanguageHandshakeResponse, error) {
	if f.mode == "mute" {
		fmt.Fprintln(os.Stderr, "fake: waiting for something")
		<-ctx.Done()
		return nil, ctx.Err()
	}
	f.hs = handshake{Engine: req.GetEngineAddress(), Root: req.GetRootDirectory(), Program: req.GetProgramDirectory()}
	return &pb.LanguageHandshakeResponse{}, nil
}

func (f *fake) Run(ctx context.Context, req *pb.RunRequest) (*pb.RunResponse, error) {
	switch f.mode {
	case "error":
		return &pb.RunResponse{Error: "index.py line 3: boom"}, nil
	case "bail":
		return &pb.RunResponse{Bail: true}, nil
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: fake crash in Run")
		os.Exit(2)
	case "hang":
		<-ctx.Done()
		time.Sleep(time.Minute)
	case "spawn":
		// A provider of the host's own, in a process group of its own
		// as Pulumi starts plugins.
		child := exec.Command("sleep", "60")
		child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := child.Start(); err != nil {
			return nil, err
		}
		if err := os.WriteFile(os.Getenv(fakeRecord), []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
			return nil, err
		}
		<-ctx.Done()
		time.Sleep(time.Minute)
	}
	fmt.Println("hello from the program")
	fmt.Fprintln(os.Stderr, "a warning from the program")
	rec := recorded{Args: os.Args[1:], Path: os.Getenv("PATH"), Handshake: f.hs, Monitor: req.GetMonitorAddress(),
		Project: req.GetProject(), Stack: req.GetStack(), Organization: req.GetOrganization(),
		Config: req.GetConfig(), SecretKeys: req.GetConfigSecretKeys(), DryRun: req.GetDryRun(), Parallel: req.GetParallel(),
		Root: req.GetInfo().GetRootDirectory(), ProgramDir: req.GetInfo().GetProgramDirectory(),
		EntryPoint: req.GetInfo().GetEntryPoint(), Options: req.GetInfo().GetOptions().AsMap()}
	data, _ := json.Marshal(rec)
	if err := os.WriteFile(os.Getenv(fakeRecord), data, 0o644); err != nil {
		return nil, err
	}
	return &pb.RunResponse{}, nil
}

func (f *fake) GetRequiredPackages(context.Context, *pb.GetRequiredPackagesRequest) (*pb.GetRequiredPackagesResponse, error) {
	if asked := os.Getenv(fakeAsked); asked != "" {
		if err := appendLine(asked, "GetRequiredPackages"); err != nil {
			return nil, err
		}
	}
	switch f.mode {
	case "old":
		return f.UnimplementedLanguageRuntimeServer.GetRequiredPackages(context.Background(), nil)
	case "refuse":
		return nil, errors.New("Pulumi.yaml:3: the program is not valid")
	}
	return &pb.GetRequiredPackagesResponse{Packages: []*pb.PackageDependency{
		{Name: "random", Version: "4.16.0"},
		{Name: "terraform-provider", Version: "0.3.0", Parameterization: &pb.PackageParameterization{Name: "vault", Version: "4.6.0"}},
	}}, nil
}

func (f *fake) GetRequiredPlugins(context.Context, *pb.GetRequiredPluginsRequest) (*pb.GetRequiredPluginsResponse, error) {
	return &pb.GetRequiredPluginsResponse{Plugins: []*pb.PluginDependency{
		{Name: "random", Kind: "resource", Version: "4.16.0", Server: "https://example.invalid"},
		{Name: "python", Kind: "language"},
	}}, nil
}

func (f *fake) InstallDependencies(req *pb.InstallDependenciesRequest, stream pb.LanguageRuntime_InstallDependenciesServer) error {
	_ = stream.Send(&pb.InstallDependenciesResponse{Stdout: []byte("installing in " + req.GetInfo().GetProgramDirectory() + "\n")})
	_ = stream.Send(&pb.InstallDependenciesResponse{Stderr: []byte("a warning\n")})
	return nil
}

func (f *fake) GetPluginInfo(context.Context, *emptypb.Empty) (*pb.PluginInfo, error) {
	return &pb.PluginInfo{Version: "1.0.0"}, nil
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	return errors.Join(err, f.Close())
}
