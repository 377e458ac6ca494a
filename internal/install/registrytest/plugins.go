package registrytest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// PluginServer serves Pulumi plugin release tarballs over plain HTTP, as
// a pluginDownloadURL names a server:
// /pulumi-resource-NAME-vVERSION-OS-ARCH.tar.gz holding the binary as
// pulumi-resource-NAME, and, when Checksums is set,
// /pulumi-NAME_VERSION_checksums.txt listing the tarball's SHA-256.
type PluginServer struct {
	*httptest.Server
	// Checksums publishes the checksums file; BadChecksum lists a wrong
	// SHA-256 in it.
	Checksums, BadChecksum bool
	// NoBinary serves tarballs holding something else.
	NoBinary bool

	mu       sync.Mutex
	files    map[string][]byte
	requests []string
}

// NewPluginServer serves version of the resource plugin name, whose
// executable is binary; it is closed when the test ends.
func NewPluginServer(t testing.TB, name, version, binary string) *PluginServer {
	t.Helper()
	bin, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	s := &PluginServer{files: map[string][]byte{}}
	tarball := fmt.Sprintf("pulumi-resource-%s-v%s-%s-%s.tar.gz", name, version, runtime.GOOS, runtime.GOARCH)
	s.files[tarball] = tarGzOf(t, map[string][]byte{"pulumi-resource-" + name: bin, "README.md": []byte("a plugin\n")})
	s.files["other-"+tarball] = tarGzOf(t, map[string][]byte{"README.md": []byte("no binary\n")})
	s.files[fmt.Sprintf("pulumi-%s_%s_checksums.txt", name, version)] = []byte(sum(s.files[tarball]) + "  " + tarball + "\n")
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests are the paths asked for, in order.
func (s *PluginServer) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *PluginServer) serve(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := strings.TrimPrefix(req.URL.Path, "/")
	s.requests = append(s.requests, name)
	if strings.HasSuffix(name, "_checksums.txt") && !s.Checksums {
		http.NotFound(w, req)
		return
	}
	b, ok := s.files[name]
	if s.NoBinary && ok && strings.HasSuffix(name, ".tar.gz") {
		b = s.files["other-"+name]
	}
	if !ok || strings.HasPrefix(name, "other-") {
		http.NotFound(w, req)
		return
	}
	if s.BadChecksum && strings.HasSuffix(name, "_checksums.txt") {
		b = []byte(strings.Repeat("0", 64) + string(b[64:]))
	}
	w.Write(b)
}

func tarGzOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, b := range files {
		mode := int64(0o644)
		if strings.HasPrefix(name, "pulumi-") {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: "./" + name, Mode: mode, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
