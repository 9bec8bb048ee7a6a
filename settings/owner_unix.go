//go:build unix

package settings

import (
	"io/fs"
	"os"
	"syscall"
)

// owner is a file's user and group.
type owner struct{ uid, gid int }

// ownerOf returns the owner of the file fi describes, and whether it is
// known.
func ownerOf(fi fs.FileInfo) (owner, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}, false
	}
	return owner{int(st.Uid), int(st.Gid)}, true
}

// asRoot reports whether the process may give files away (it runs as
// root: under sudo, say).
func asRoot() bool { return os.Geteuid() == 0 }

// chown gives the file at path to o.
func chown(path string, o owner) error { return os.Lchown(path, o.uid, o.gid) }
