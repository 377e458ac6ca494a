package schemacache

import (
	"os"
	"strconv"
	"syscall"
)

// stampOf is what must be unchanged for a file to keep its recorded sum:
// size, modification time, change time, inode and device.
func stampOf(fi os.FileInfo) string {
	s := strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return s
	}
	return s + " c" + strconv.FormatInt(st.Ctim.Nano(), 10) +
		" i" + strconv.FormatUint(uint64(st.Ino), 10) + " d" + strconv.FormatUint(uint64(st.Dev), 10)
}

// TrustedStamps reports whether a file's stamp carries its change time and
// inode, so that a sum recorded for it may stand in for hashing it where
// a check must not be fooled (see Cache.Sum).
const TrustedStamps = true
