//go:build !unix

package filelock

import "os"

// tryLock locks nothing where there is no flock.
func tryLock(*os.File) (bool, error) { return true, nil }
