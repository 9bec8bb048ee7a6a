//go:build unix

package hook

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file fi describes belongs to the
// process's user, so that a folder another user made in a shared
// temporary folder is never written to.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
