//go:build unix

package yamltest_test

import (
	"bufio"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/plinth-iac/plinth/internal/langhost/runtime/yamltest"
)

// TestBinaryIsTheLanguageHost checks that what Binary gives is
// pulumi-language-yaml at Version: it prints a port and answers
// GetPluginInfo with its version.
func TestBinaryIsTheLanguageHost(t *testing.T) {
	bin := yamltest.Binary(t)
	cmd := exec.Command(bin)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the port: %v", err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("first line %q is not a port", line)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	info, err := pb.NewLanguageRuntimeClient(conn).GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil {
		t.Fatalf("GetPluginInfo: %v", err)
	}
	if want := strings.TrimPrefix(yamltest.Version, "v"); strings.TrimPrefix(info.GetVersion(), "v") != want {
		t.Errorf("GetPluginInfo says version %q, want %s", info.GetVersion(), want)
	}
}
