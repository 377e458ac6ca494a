// Package tfplugintest holds the checks the generated Terraform protocol
// packages (sdk/tfplugin5, sdk/tfplugin6) share: that their
// descriptors are registered under plinth's own names, and that the
// committed code is what gen.sh makes of the committed .proto. It is
// imported only by those packages' tests.
package tfplugintest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// CheckRegistration requires that protocol tfpluginN's messages are
// registered as plinth.tfpluginN.*, never as tfpluginN.* (which would
// clash with terraform-plugin-go's copy in one binary).
func CheckRegistration(t *testing.T, n int) {
	t.Helper()
	pkg := fmt.Sprintf("tfplugin%d", n)
	for _, name := range []string{"DynamicValue", "Schema.Block"} {
		full := protoreflect.FullName("plinth." + pkg + "." + name)
		if _, err := protoregistry.GlobalTypes.FindMessageByName(full); err != nil {
			t.Errorf("message %s is not registered: %v", full, err)
		}
	}
	if _, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(pkg + ".DynamicValue")); err == nil {
		t.Errorf("%s.DynamicValue is registered: the descriptors would clash with terraform-plugin-go's", pkg)
	}
	if _, err := protoregistry.GlobalFiles.FindFileByPath("sdk/" + pkg + "/" + pkg + ".proto"); err != nil {
		t.Errorf("file path: %v", err)
	}
}

// CheckGeneratedUpToDate regenerates protocol tfpluginN's code with gen.sh
// in a temporary tree and compares it with the committed code; run from
// the package's directory. It skips where the pinned generators are not
// installed (CI needs no protoc).
func CheckGeneratedUpToDate(t *testing.T, n int) {
	t.Helper()
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skip("protoc is not on PATH; cannot check the generated code (see gen.sh)")
	}
	for tool, want := range map[string]string{"protoc-gen-go": "protoc-gen-go v1.36.11", "protoc-gen-go-grpc": "protoc-gen-go-grpc 1.5.1"} {
		out, err := exec.Command(tool, "--version").Output()
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Skipf("%s is missing or not %q; cannot check the generated code (see gen.sh)", tool, want)
		}
	}
	pkg := fmt.Sprintf("tfplugin%d", n)
	dir := filepath.Join(t.TempDir(), "sdk", pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"gen.sh", pkg + ".proto"} {
		copyFile(t, f, filepath.Join(dir, f))
	}
	cmd := exec.Command("sh", "gen.sh")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, out)
	}
	for _, f := range []string{pkg + ".pb.go", pkg + "_grpc.pb.go"} {
		want, _ := os.ReadFile(filepath.Join(dir, f))
		got, _ := os.ReadFile(f)
		if !bytes.Equal(withoutProtocVersion(got), withoutProtocVersion(want)) {
			t.Errorf("%s is stale: run go generate ./sdk/%s", f, pkg)
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
