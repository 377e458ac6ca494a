package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultDir is the directory of this user's agent:
// $XDG_RUNTIME_DIR/plinth, or plinth-<uid> in the temporary directory
// when XDG_RUNTIME_DIR is unset or not absolute.
func DefaultDir(getenv func(string) string) string {
	if x := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(x) {
		return filepath.Join(x, "plinth")
	}
	return filepath.Join(os.TempDir(), "plinth-"+strconv.Itoa(os.Getuid()))
}

func socketPath(dir string) string { return filepath.Join(dir, "agent.sock") }
func lockPath(dir string) string   { return filepath.Join(dir, "agent.lock") }

// checkDir returns an error unless dir is a real directory (not a
// symbolic link) owned by this user that no one else may enter, list or
// write: otherwise another user could put a socket of theirs there and
// be handed passphrases, or reach ours. With create, a missing dir is
// made with mode 0700 first (its parent must exist).
func checkDir(dir string, create bool) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	uid, ok := owner(fi)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !ok || uid != os.Getuid():
		return fmt.Errorf("%s is not owned by uid %d", dir, os.Getuid())
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s has mode %v, want no permission for group or others", dir, fi.Mode().Perm())
	}
	return nil
}
