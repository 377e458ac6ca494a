package registrytest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// Module is one module version the registry offers: the files of Dir,
// served as a .tar.gz archive that the download endpoint's
// X-Terraform-Get header points at.
type Module struct {
	Namespace, Name, System, Version string
	Dir                              string
}

func (m Module) archiveName() string {
	return fmt.Sprintf("modules/%s-%s-%s-%s.tar.gz", m.Namespace, m.Name, m.System, m.Version)
}

// AddModule packs a module version and offers it (modules.v1).
func (s *Server) AddModule(t testing.TB, m Module) {
	t.Helper()
	b, err := tarGz(m.Dir)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modules = append(s.modules, m)
	s.files[m.archiveName()] = b
}

// tarGz archives a directory's files (relative names, regular files
// and directories only).
func tarGz(dir string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if err := tw.WriteHeader(hdr); err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil {
			_, err = tw.Write(b)
		}
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = gz.Close()
	}
	return buf.Bytes(), err
}

// serveModules answers NS/NAME/SYSTEM/versions and
// NS/NAME/SYSTEM/VERSION/download, the latter with a 204 whose
// X-Terraform-Get is a relative URL of the archive.
func (s *Server) serveModules(w http.ResponseWriter, parts []string) {
	type ver struct {
		Version string `json:"version"`
	}
	switch {
	case len(parts) == 4 && parts[3] == "versions":
		var vs []ver
		for _, m := range s.modules {
			if m.Namespace == parts[0] && m.Name == parts[1] && m.System == parts[2] {
				vs = append(vs, ver{m.Version})
			}
		}
		if len(vs) == 0 {
			http.Error(w, "no such module", http.StatusNotFound)
			return
		}
		writeJSON(w, map[string]any{"modules": []map[string]any{{"versions": vs}}})
	case len(parts) == 5 && parts[4] == "download":
		for _, m := range s.modules {
			if m.Namespace == parts[0] && m.Name == parts[1] && m.System == parts[2] && m.Version == parts[3] {
				w.Header().Set("X-Terraform-Get", "/files/"+m.archiveName())
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		http.Error(w, "no such module version", http.StatusNotFound)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}
