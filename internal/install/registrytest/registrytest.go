// Package registrytest serves a Terraform provider and module registry
// over HTTPS for tests: service discovery, the providers.v1 versions and
// download endpoints, and release zips with a SHA256SUMS file signed by
// an OpenPGP key made for the test, as registry.terraform.io serves
// them; and the modules.v1 versions and download endpoints, with each
// module version as a .tar.gz archive (AddModule).
// Its fields let a test break one link of the chain of trust (the zip,
// the signature, the signing key) to see the installer refuse it.
package registrytest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Release is one provider version the registry offers: Binary is the
// provider executable packaged for this machine's platform; the registry
// also lists a small stand-in zip for OtherPlatform, so that SHA256SUMS
// holds more than one platform, as real releases do.
type Release struct {
	Namespace, Type, Version string
	Binary                   string
	// Protocols are the plugin protocols it claims; nil is ["5.0"].
	Protocols []string
}

func (r Release) protocols() []string {
	if r.Protocols == nil {
		return []string{"5.0"}
	}
	return r.Protocols
}

// OtherPlatform is the extra platform every release lists.
const OtherPlatform = "darwin_arm64"

// Server is a running registry. Change its fields before the installer
// asks it anything.
type Server struct {
	*httptest.Server
	// Key signs SHA256SUMS and is the key the registry lists.
	Key *openpgp.Entity
	// SignWith, when set, signs SHA256SUMS instead of Key while the
	// registry still lists Key: an unknown signing key.
	SignWith *openpgp.Entity
	// BadSignature serves a signature of other text.
	BadSignature bool
	// TamperZip serves zips with one byte changed after they were summed.
	TamperZip bool
	// Token, when set, is the bearer token service discovery and the
	// providers.v1 endpoints require (401 without it); the network
	// mirror does not.
	Token string
	// TokenOnFile records that a file download carried an Authorization
	// header, which a client should not send there.
	TokenOnFile bool

	mu       sync.Mutex
	releases []Release
	modules  []Module
	files    map[string][]byte // zip and module archive bytes by file name
}

// New starts a registry serving releases; it is closed when the test
// ends.
func New(t testing.TB, releases ...Release) *Server {
	t.Helper()
	s, err := Start(releases...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a registry serving releases outside a test (the Terraform
// example's local registry); the caller closes it.
func Start(releases ...Release) (*Server, error) {
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	s := &Server{Key: key, releases: releases, files: map[string][]byte{}}
	for _, r := range releases {
		if err := s.pack(r); err != nil {
			return nil, err
		}
	}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	return s, nil
}

// NewKey makes an RSA OpenPGP key (the kind every terraform accepts).
func NewKey(t testing.TB) *openpgp.Entity {
	t.Helper()
	e, err := newKey()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func newKey() (*openpgp.Entity, error) {
	return openpgp.NewEntity("Plinth Test Registry", "", "registry@example.com",
		&packet.Config{Algorithm: packet.PubKeyAlgoRSA, RSABits: 2048})
}

// Host is the registry's host:port, as a source address names it.
func (s *Server) Host() string { return strings.TrimPrefix(s.URL, "https://") }

// WriteCA writes the server's certificate as PEM (for SSL_CERT_FILE) and
// returns the file's path.
func (s *Server) WriteCA(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := s.WriteCAFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// WriteCAFile writes the server's certificate as PEM to path.
func (s *Server) WriteCAFile(path string) error {
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	return os.WriteFile(path, b, 0o644)
}

// HostBlock is a CLI configuration host block pointing host's
// providers.v1 and modules.v1 services at the server.
func (s *Server) HostBlock(host string) string {
	return "host \"" + host + "\" {\n  services = {\n    \"providers.v1\" = \"" + s.URL + "/v1/providers/\"\n    \"modules.v1\" = \"" + s.URL + "/v1/modules/\"\n  }\n}\n"
}

func platform() string { return runtime.GOOS + "_" + runtime.GOARCH }

func zipName(r Release, pl string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", r.Type, r.Version, pl)
}

func sumsName(r Release) string {
	return fmt.Sprintf("terraform-provider-%s_%s_SHA256SUMS", r.Type, r.Version)
}

// pack zips the release's binary (stored, not deflated: the test only
// needs the format) and a stand-in for the other platform.
func (s *Server) pack(r Release) error {
	bin, err := os.ReadFile(r.Binary)
	if err != nil {
		return err
	}
	inner := fmt.Sprintf("terraform-provider-%s_v%s_x5", r.Type, r.Version)
	for pl, content := range map[string][]byte{platform(): bin, OtherPlatform: []byte("not for this machine")} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		hdr := &zip.FileHeader{Name: inner, Method: zip.Store}
		hdr.SetMode(0o755)
		w, err := zw.CreateHeader(hdr)
		if err == nil {
			_, err = w.Write(content)
		}
		if err == nil {
			err = zw.Close()
		}
		if err != nil {
			return err
		}
		s.files[zipName(r, pl)] = buf.Bytes()
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// ZipSHA256 is the hex SHA-256 of a release's zip for a platform ("" for
// this machine's).
func (s *Server) ZipSHA256(r Release, pl string) string {
	if pl == "" {
		pl = platform()
	}
	return sum(s.files[zipName(r, pl)])
}

func (s *Server) sums(r Release) []byte {
	var lines []string
	for _, pl := range []string{platform(), OtherPlatform} {
		lines = append(lines, s.ZipSHA256(r, pl)+"  "+zipName(r, pl))
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := req.URL.Path
	if req.Header.Get("Authorization") != "" && strings.HasPrefix(p, "/files/") {
		s.TokenOnFile = true
	}
	if s.Token != "" && !strings.HasPrefix(p, "/files/") && !strings.HasPrefix(p, MirrorPath) && req.Header.Get("Authorization") != "Bearer "+s.Token {
		http.Error(w, "a token is required", http.StatusUnauthorized)
		return
	}
	switch {
	case p == "/.well-known/terraform.json":
		// login.v1's value is an object, as Terraform Cloud's is: a
		// client must not expect every service to be a string.
		writeJSON(w, map[string]any{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/",
			"login.v1": map[string]any{"client": "terraform-cli", "grant_types": []string{"authz_code"}}})
	case strings.HasPrefix(p, "/v1/providers/"):
		s.serveProviders(w, strings.Split(strings.TrimPrefix(p, "/v1/providers/"), "/"))
	case strings.HasPrefix(p, "/v1/modules/"):
		s.serveModules(w, strings.Split(strings.TrimPrefix(p, "/v1/modules/"), "/"))
	case strings.HasPrefix(p, MirrorPath):
		s.serveMirror(w, strings.Split(strings.TrimPrefix(p, MirrorPath), "/"))
	case strings.HasPrefix(p, "/files/"):
		s.serveFile(w, strings.TrimPrefix(p, "/files/"))
	default:
		http.NotFound(w, req)
	}
}

// serveProviders answers NS/TYPE/versions and NS/TYPE/V/download/OS/ARCH.
func (s *Server) serveProviders(w http.ResponseWriter, parts []string) {
	switch {
	case len(parts) == 3 && parts[2] == "versions":
		s.serveVersions(w, parts[0], parts[1])
	case len(parts) == 6 && parts[3] == "download":
		for _, r := range s.releases {
			if r.Namespace == parts[0] && r.Type == parts[1] && r.Version == parts[2] {
				s.serveDownload(w, r, parts[4]+"_"+parts[5])
				return
			}
		}
		http.Error(w, "no such release", http.StatusNotFound)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func (s *Server) serveVersions(w http.ResponseWriter, ns, typ string) {
	type plat struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	type ver struct {
		Version   string   `json:"version"`
		Protocols []string `json:"protocols"`
		Platforms []plat   `json:"platforms"`
	}
	out := struct {
		Versions []ver `json:"versions"`
	}{Versions: []ver{}}
	for _, r := range s.releases {
		if r.Namespace == ns && r.Type == typ {
			out.Versions = append(out.Versions, ver{r.Version, r.protocols(),
				[]plat{{runtime.GOOS, runtime.GOARCH}, {"darwin", "arm64"}}})
		}
	}
	if len(out.Versions) == 0 {
		http.Error(w, "no such provider", http.StatusNotFound)
		return
	}
	writeJSON(w, out)
}

func (s *Server) serveDownload(w http.ResponseWriter, r Release, pl string) {
	name := zipName(r, pl)
	if _, ok := s.files[name]; !ok {
		http.Error(w, "no such platform", http.StatusNotFound)
		return
	}
	goos, arch, _ := strings.Cut(pl, "_")
	writeJSON(w, map[string]any{
		"protocols":             r.protocols(),
		"os":                    goos,
		"arch":                  arch,
		"filename":              name,
		"download_url":          "/files/" + name,
		"shasums_url":           "/files/" + sumsName(r),
		"shasums_signature_url": "/files/" + sumsName(r) + ".sig",
		"shasum":                s.ZipSHA256(r, pl),
		"signing_keys": map[string]any{"gpg_public_keys": []map[string]string{{
			"key_id": s.Key.PrimaryKey.KeyIdString(), "ascii_armor": armored(s.Key),
			"trust_signature": "", "source": "Plinth", "source_url": "https://example.com/",
		}}},
	})
}

func (s *Server) serveFile(w http.ResponseWriter, name string) {
	for _, r := range s.releases {
		switch name {
		case sumsName(r):
			w.Write(s.sums(r))
			return
		case sumsName(r) + ".sig":
			w.Write(s.signature(r))
			return
		}
	}
	b, ok := s.files[name]
	if !ok {
		http.NotFound(w, nil)
		return
	}
	if s.TamperZip {
		b = bytes.Clone(b)
		b[len(b)/2] ^= 0xff
	}
	w.Write(b)
}

// signature is a binary detached signature of the release's SHA256SUMS.
func (s *Server) signature(r Release) []byte {
	signed, key := s.sums(r), s.Key
	if s.SignWith != nil {
		key = s.SignWith
	}
	if s.BadSignature {
		signed = append(bytes.Clone(signed), "tampered\n"...)
	}
	var buf bytes.Buffer
	if err := openpgp.DetachSign(&buf, key, bytes.NewReader(signed), nil); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func armored(e *openpgp.Entity) string {
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err == nil {
		err = e.Serialize(w)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		panic(err)
	}
	return buf.String()
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
