//go:build !linux

package schemacache

import (
	"os"
	"strconv"
)

// stampOf is what must be unchanged for a file to keep its recorded sum:
// here its size and modification time only (the change time and inode are
// read on Linux, stamp_linux.go).
func stampOf(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// TrustedStamps reports whether a file's stamp carries its change time and
// inode, so that a sum recorded for it may stand in for hashing it where
// a check must not be fooled (see Cache.Sum). Not here.
const TrustedStamps = false
