package registrytest

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"net/http"
)

// MirrorPath is where the server answers the provider network mirror
// protocol: MirrorPath + HOST/NAMESPACE/TYPE/index.json and VERSION.json,
// for every release under any HOST. Mirror hashes are zh: entries.
const MirrorPath = "/mirror/"

// serveMirror answers HOST/NS/TYPE/index.json and HOST/NS/TYPE/V.json.
func (s *Server) serveMirror(w http.ResponseWriter, parts []string) {
	if len(parts) != 4 {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	ns, typ, file := parts[1], parts[2], parts[3]
	versions := map[string]any{}
	for _, r := range s.releases {
		if r.Namespace != ns || r.Type != typ {
			continue
		}
		versions[r.Version] = map[string]any{}
		if file == r.Version+".json" {
			archives := map[string]any{}
			for _, pl := range []string{platform(), OtherPlatform} {
				archives[pl] = map[string]any{"url": "../../../../files/" + zipName(r, pl),
					"hashes": []string{"zh:" + s.ZipSHA256(r, pl)}}
			}
			writeJSON(w, map[string]any{"archives": archives})
			return
		}
	}
	if file != "index.json" || len(versions) == 0 {
		http.Error(w, "no such provider or version", http.StatusNotFound)
		return
	}
	writeJSON(w, map[string]any{"versions": versions})
}

// Releases are the provider versions the registry offers.
func (s *Server) Releases() []Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Release(nil), s.releases...)
}

// WriteMirror lays every release's package for this platform out as a
// filesystem mirror for providers of host, under dir: packed (the zip,
// HOST/NS/TYPE/terraform-provider-TYPE_V_OS_ARCH.zip) or unpacked
// (HOST/NS/TYPE/V/OS_ARCH/).
func (s *Server) WriteMirror(t testing.TB, dir, host string, packed bool) {
	t.Helper()
	for _, r := range s.Releases() {
		pdir := filepath.Join(dir, host, r.Namespace, r.Type)
		b := s.files[zipName(r, platform())]
		var err error
		if packed {
			err = os.MkdirAll(pdir, 0o755)
			if err == nil {
				err = os.WriteFile(filepath.Join(pdir, zipName(r, platform())), b, 0o644)
			}
		} else {
			err = unzipTo(b, filepath.Join(pdir, r.Version, platform()))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func unzipTo(b []byte, dir string) error {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range zr.File {
		if strings.Contains(f.Name, "/") {
			continue // the test zips hold one binary
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f.Name), data, f.Mode().Perm())
		}
		if err != nil {
			return err
		}
	}
	return nil
}
