//go:build !unix

package install

import (
	"fmt"
	"os"
)

// lockFile creates path, the lock file the pulumi CLI keeps beside a
// plugin's directory; here it is not locked.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
