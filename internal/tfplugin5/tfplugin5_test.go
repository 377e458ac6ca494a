package tfplugin5

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// The descriptors must live under plinth's own names so that they never
// collide with terraform-plugin-go's copy in one binary.
func TestRegisteredUnderPlinthNames(t *testing.T) {
	for _, name := range []protoreflect.FullName{"plinth.tfplugin5.DynamicValue", "plinth.tfplugin5.Schema.Block"} {
		if _, err := protoregistry.GlobalTypes.FindMessageByName(name); err != nil {
			t.Errorf("message %s is not registered: %v", name, err)
		}
	}
	if _, err := protoregistry.GlobalTypes.FindMessageByName("tfplugin5.DynamicValue"); err == nil {
		t.Errorf("tfplugin5.DynamicValue is registered: the descriptors would clash with terraform-plugin-go's")
	}
	if _, err := protoregistry.GlobalFiles.FindFileByPath("internal/tfplugin5/tfplugin5.proto"); err != nil {
		t.Errorf("file path: %v", err)
	}
}

// On the wire the service keeps Terraform's name.
func TestWireServiceName(t *testing.T) {
	if got, want := Provider_ServiceDesc.ServiceName, "tfplugin5.Provider"; got != want {
		t.Errorf("service name %q, want %q", got, want)
	}
	if got, want := Provider_GetSchema_FullMethodName, "/tfplugin5.Provider/GetSchema"; got != want {
		t.Errorf("method name %q, want %q", got, want)
	}
}

// The committed code must be what gen.sh makes of the committed .proto.
// Skipped where the generators are not installed (CI needs no protoc).
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
	root := t.TempDir()
	dir := filepath.Join(root, "internal", "tfplugin5")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gen.sh", "tfplugin5.proto"} {
		copyFile(t, f, filepath.Join(dir, f))
	}
	cmd := exec.Command("sh", "gen.sh")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, out)
	}
	for _, f := range []string{"tfplugin5.pb.go", "tfplugin5_grpc.pb.go"} {
		want, _ := os.ReadFile(filepath.Join(dir, f))
		got, _ := os.ReadFile(f)
		if !bytes.Equal(withoutProtocVersion(got), withoutProtocVersion(want)) {
			t.Errorf("%s is stale: run go generate ./internal/tfplugin5", f)
		}
	}
}

// withoutProtocVersion drops the header line naming protoc's version, which
// differs between machines without changing the code.
func withoutProtocVersion(b []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("// \tprotoc ")) && !bytes.HasPrefix(line, []byte("// - protoc ")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
