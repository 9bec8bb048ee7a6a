package settings

import (
	"os"
	"path/filepath"
)

// Run as root (hookctl under sudo, say), [Update] would leave the files
// and folders it writes owned by root, in a user's folders: the user's
// settings file, or hookctl's own record under their configuration
// folder, which the user could then no longer change. So, as root only,
// a file it replaces keeps its owner, and a file or folder it creates gets
// the owner of the folder it is created in. Elsewhere nothing changes:
// another user cannot give files away.

// ownerFor returns the owner a file written at path should have, as
// root: the owner of the file there, else that of the folder it goes in;
// false when there is nothing to do (not root, or no owner known).
func ownerFor(path string) (owner, bool) {
	if !asRoot() {
		return owner{}, false
	}
	if fi, err := os.Stat(path); err == nil {
		return ownerOf(fi)
	}
	return folderOwner(filepath.Dir(path))
}

// folderOwner returns the owner of the folder dir, as root.
func folderOwner(dir string) (owner, bool) {
	if !asRoot() {
		return owner{}, false
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return owner{}, false
	}
	return ownerOf(fi)
}

// mkdirAll makes the folder dir with its missing parents, as
// os.MkdirAll does; as root, each folder it makes gets the owner of the
// folder it is made in.
func mkdirAll(dir string) error {
	var missing []string // innermost first
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if o, ok := folderOwner(filepath.Dir(missing[i])); ok {
			if err := chown(missing[i], o); err != nil {
				return err
			}
		}
	}
	return nil
}
