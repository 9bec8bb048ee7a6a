//go:build windows

package npminstall

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

var (
	kernel32       = syscall.NewLazyDLL("kernel32.dll")
	procLockFileEx = kernel32.NewProc("LockFileEx")
	procUnlockFile = kernel32.NewProc("UnlockFileEx")
)

const (
	lockfileFailImmediately = 0x1
	lockfileExclusiveLock   = 0x2
	errorLockViolation      = syscall.Errno(33)
)

// tryLock takes an exclusive lock of f's first byte without waiting, or
// returns errBusy.
func tryLock(f *os.File) error {
	var ov syscall.Overlapped
	r, _, err := procLockFileEx.Call(f.Fd(), lockfileExclusiveLock|lockfileFailImmediately, 0, 1, 0, uintptr(unsafe.Pointer(&ov)))
	if r != 0 {
		return nil
	}
	if errors.Is(err, errorLockViolation) || errors.Is(err, syscall.ERROR_IO_PENDING) {
		return errBusy
	}
	return err
}

// unlockFile releases f's lock.
func unlockFile(f *os.File) {
	var ov syscall.Overlapped
	procUnlockFile.Call(f.Fd(), 0, 1, 0, uintptr(unsafe.Pointer(&ov)))
}
