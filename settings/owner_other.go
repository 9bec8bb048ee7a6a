//go:build !unix

package settings

import "io/fs"

// owner is a file's owner; where files have no Unix owner, none.
type owner struct{}

// ownerOf knows no owner here.
func ownerOf(fs.FileInfo) (owner, bool) { return owner{}, false }

// asRoot is false where files have no Unix owner.
func asRoot() bool { return false }

// chown does nothing here.
func chown(string, owner) error { return nil }
