//go:build !unix

package file

import "os"

// mapFile reads the file at p: mapping is for unix systems only.
func mapFile(p string) ([]byte, func(), error) {
	data, err := os.ReadFile(p)
	return data, func() {}, err
}
