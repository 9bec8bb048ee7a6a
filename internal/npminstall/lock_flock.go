//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package npminstall

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive flock without waiting, or returns errBusy.
func tryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errBusy
		}
		return err
	}
}

// unlockFile releases f's flock.
func unlockFile(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
