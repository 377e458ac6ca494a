package install

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// archiveKind is the archive format an http(s) module URL names: its
// ?archive= parameter, else its path's extension; "" for none.
func archiveKind(u *url.URL) string {
	if a := u.Query().Get("archive"); a != "" {
		return a
	}
	for _, ext := range []string{"tar.gz", "tgz", "zip"} {
		if strings.HasSuffix(u.Path, "."+ext) {
			return ext
		}
	}
	return ""
}

// getArchive downloads a module archive and unpacks it into dst.
func (w *modWalk) getArchive(ctx context.Context, u *url.URL, dst string) error {
	kind := archiveKind(u)
	if kind != "zip" && kind != "tar.gz" && kind != "tgz" {
		return fmt.Errorf("plinth fetches http(s) modules that are archives (.zip, .tar.gz, .tgz, or ?archive=zip); %s is not one", u.Redacted())
	}
	q := u.Query()
	q.Del("archive")
	u.RawQuery = q.Encode()
	body, err := w.in.Registry.get(ctx, u.String(), u.Host)
	if err != nil {
		return err
	}
	defer body.Close()
	if kind == "zip" {
		tmp, err := os.CreateTemp(w.staging, "module-*.zip")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		_, err = io.Copy(tmp, body)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("downloading %s: %w", u.Redacted(), err)
		}
		return unzip(tmp.Name(), dst)
	}
	return untarGz(body, dst)
}

// untarGz unpacks a gzipped tar into dir, refusing entries and links
// that would land or point outside it, and hard links and devices.
func untarGz(r io.Reader, dir string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("the archive is not gzipped: %w", err)
	}
	tr := tar.NewReader(gz)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		if err := untarOne(tr, hdr, dir); err != nil {
			return err
		}
	}
}

func untarOne(tr *tar.Reader, hdr *tar.Header, dir string) error {
	if hdr.Typeflag == tar.TypeXGlobalHeader {
		return nil // git archive's pax_global_header: metadata, no file
	}
	name := filepath.FromSlash(strings.TrimPrefix(hdr.Name, "./"))
	if name == "" || name == "." {
		return nil
	}
	if !filepath.IsLocal(name) {
		return fmt.Errorf("the archive holds %q, outside the module directory", hdr.Name)
	}
	path := filepath.Join(dir, name)
	switch hdr.Typeflag {
	case tar.TypeDir:
		return os.MkdirAll(path, 0o755)
	case tar.TypeSymlink:
		return untarLink(hdr, name, path)
	case tar.TypeReg:
	default:
		return fmt.Errorf("the archive holds %q, which is neither a file, a directory nor a symbolic link", hdr.Name)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, hdr.FileInfo().Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, tr); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// untarLink makes a symbolic link the archive holds, if it points at a
// relative path inside the module directory.
func untarLink(hdr *tar.Header, name, path string) error {
	target := filepath.FromSlash(hdr.Linkname)
	if filepath.IsAbs(target) || !filepath.IsLocal(filepath.Join(filepath.Dir(name), target)) {
		return fmt.Errorf("the archive holds a link %q to %q, outside the module directory", hdr.Name, hdr.Linkname)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.Symlink(target, path)
}
