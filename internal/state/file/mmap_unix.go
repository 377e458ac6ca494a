//go:build unix

package file

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at p read-only. An empty file is read instead,
// as it cannot be mapped.
func mapFile(p string) ([]byte, func(), error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 || int64(int(fi.Size())) != fi.Size() {
		data, err := os.ReadFile(p)
		return data, func() {}, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", p, err)
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
