package npminstall

import (
	"context"
	"errors"
	"os"
	"time"
)

// errBusy is tryLock's answer when another process holds the lock.
var errBusy = errors.New("the lock is held")

// lock takes the exclusive lock of the file path, creating the file,
// and returns its release. While another process holds it, lock calls
// waiting once and tries again every quarter second until ctx ends. The
// system releases the lock when the process dies, so a killed install
// leaves no lock behind. Where the system offers no file lock (see
// tryLock), lock returns at once and installs may overlap; the rename of
// a finished install into place still keeps every folder whole.
func lock(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	told := false
	for {
		err := tryLock(f)
		if err == nil {
			return func() { unlockFile(f); f.Close() }, nil
		}
		if !errors.Is(err, errBusy) {
			f.Close()
			return nil, err
		}
		if !told {
			waiting()
			told = true
		}
		t := time.NewTimer(250 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
