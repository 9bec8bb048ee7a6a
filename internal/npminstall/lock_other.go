//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package npminstall

import "os"

// tryLock takes no lock: this system has no file lock the standard
// library reaches. Installs may then overlap (see lock).
func tryLock(*os.File) error { return nil }

// unlockFile does nothing.
func unlockFile(*os.File) {}
