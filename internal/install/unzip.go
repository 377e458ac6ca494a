package install

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// unzip unpacks a provider zip into dir, refusing entries that would land
// outside it, and keeping the files' permission bits (the provider binary
// must stay executable).
func unzip(zipPath, dir string) error {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, f := range zr.File {
		if err := unzipOne(f, dir); err != nil {
			return err
		}
	}
	return nil
}

func unzipOne(f *zip.File, dir string) error {
	name := filepath.FromSlash(f.Name)
	if !filepath.IsLocal(name) {
		return fmt.Errorf("the zip holds %q, outside the package directory", f.Name)
	}
	path := filepath.Join(dir, name)
	if f.FileInfo().IsDir() {
		return os.MkdirAll(path, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := f.Mode().Perm()
	if mode == 0 {
		mode = 0o755
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
