package mupb

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoregistry"
)

// The descriptors live under plinth's own name, plinth.mu; on the wire the
// service keeps the protocol's, mu.ResourceProvider.
func TestNames(t *testing.T) {
	if _, err := protoregistry.GlobalTypes.FindMessageByName("plinth.mu.CreateRequest"); err != nil {
		t.Errorf("plinth.mu.CreateRequest is not registered: %v", err)
	}
	if _, err := protoregistry.GlobalTypes.FindMessageByName("mu.CreateRequest"); err == nil {
		t.Error("mu.CreateRequest is registered: the descriptors could clash with another copy")
	}
	if got, want := ResourceProvider_Create_FullMethodName, "/mu.ResourceProvider/Create"; got != want {
		t.Errorf("method name %q, want %q", got, want)
	}
}

// The committed code must be what gen.sh makes of the committed .proto;
// skipped where the pinned generators are not installed.
func TestGeneratedCodeUpToDate(t *testing.T) {
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skip("protoc is not on PATH; cannot check the generated code (see gen.sh)")
	}
	for tool, want := range map[string]string{"protoc-gen-go": "protoc-gen-go v1.36.11", "protoc-gen-go-grpc": "protoc-gen-go-grpc 1.5.1"} {
		out, err := exec.Command(tool, "--version").Output()
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Skipf("%s is missing or not %q; cannot check the generated code (see gen.sh)", tool, want)
		}
	}
	dir := filepath.Join(t.TempDir(), "internal", "provider", "mu", "mupb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gen.sh", "mu.proto"} {
		data, err := os.ReadFile(f)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sh", "gen.sh")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, out)
	}
	for _, f := range []string{"mu.pb.go", "mu_grpc.pb.go"} {
		want, _ := os.ReadFile(filepath.Join(dir, f))
		got, _ := os.ReadFile(f)
		if !bytes.Equal(withoutProtocVersion(got), withoutProtocVersion(want)) {
			t.Errorf("%s is stale: run go generate ./internal/provider/mu/mupb", f)
		}
	}
}

// withoutProtocVersion drops the header line naming protoc's version.
func withoutProtocVersion(b []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("// \tprotoc ")) && !bytes.HasPrefix(line, []byte("// - protoc ")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
