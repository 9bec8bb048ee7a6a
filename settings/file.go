package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockTimeout is how long [Update] waits for another writer's lock before
// giving up. A lock file older than staleLock is taken to be left behind by
// a writer that died, and removed. They are variables for the tests.
var (
	lockTimeout = 10 * time.Second
	staleLock   = 30 * time.Second
)

// ErrLocked reports a file whose lock another writer held for longer than
// 10 seconds.
var ErrLocked = errors.New("settings: the file is locked by another writer")

// ReadFile reads the hooks of the file at path; a file that does not exist
// has none. A *SyntaxError names path.
//
// Anything but a regular file or a symbolic link to one is refused
// without being opened (see [ErrNotRegular]).
func ReadFile(path string) ([]Hook, error) {
	data, err := ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	hs, err := Parse(data)
	return hs, withPath(err, path)
}

// Install adds e to the settings or hooks.json file at path with [Add],
// through [Update]. It reports whether the file changed.
func Install(path string, e Entry) (bool, error) {
	return Update(path, func(data []byte) ([]byte, error) {
		out, _, err := Add(data, e)
		return out, err
	})
}

// Uninstall removes e from the file at path with [Remove], through
// [Update]. It reports how many handlers it removed.
func Uninstall(path string, e Entry) (int, error) {
	n := 0
	_, err := Update(path, func(data []byte) ([]byte, error) {
		out, k, err := Remove(data, e)
		n = k
		return out, err
	})
	return n, err
}

// Update rewrites the file at path (a symbolic link is followed) with
// edit, which gets the file's bytes (nil when it does not exist) and
// returns the new ones. It reports whether the file changed; when edit
// returns its input unchanged, or an error, nothing is written. When edit
// returns [DeleteFile], the file is deleted (a link to it is left as it
// is); for a file that does not exist that changes nothing.
//
// Update writes only a regular file, through a symbolic link (chain) to
// one, or where nothing is: a device, a named pipe, a socket, a
// directory, a link to any of those or a dangling link is refused with an
// error that names it and matches [ErrNotRegular]. That is checked before
// anything is created, so the refusal leaves no lock, no temporary file
// and no folder behind, and nothing is opened that could block (a named
// pipe) or be written (a device).
//
// Writers that go through Update take turns: each holds path+".lock"
// (created exclusively) while it reads, edits and writes, and waits up to
// 10 seconds for it (a lock older than 30 seconds is taken to be left
// behind by a writer that died). The new bytes go to a temporary file in
// the same folder, with the old file's permissions, which is synced and renamed
// over the old one, so that a reader sees the old file or the new one,
// never half of one. A writer that ignores the lock (an editor, Claude
// Code itself) is noticed: when the file changed between the read and the
// rename, the edit is done again on the new bytes, up to five times.
// A missing folder is created.
//
// Run as root (under sudo), Update keeps the owner of the file it
// replaces, and gives a file or folder it creates the owner of the folder
// it is created in, so that a user's file stays theirs.
func Update(path string, edit func([]byte) ([]byte, error)) (bool, error) {
	real, _, err := resolve(path)
	if err != nil {
		return false, err
	}
	path = real
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		return false, err
	}
	unlock, err := lock(path + ".lock")
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	defer unlock()
	for range 5 {
		data, mode, err := readMode(path)
		if err != nil {
			return false, err
		}
		out, err := edit(data)
		if errors.Is(err, DeleteFile) {
			if data == nil {
				return false, nil
			}
			done, err := deleteIfSame(path, data)
			if err != nil || done {
				return done, err
			}
			continue
		}
		if err != nil {
			return false, withPath(err, path)
		}
		if bytes.Equal(out, data) && (data != nil || out == nil) {
			return false, nil
		}
		done, err := writeIfSame(path, data, out, mode)
		if err != nil || done {
			return done, err
		}
	}
	return false, fmt.Errorf("%s: changed by another writer during each of five attempts", path)
}

// DeleteFile is what an [Update] edit function returns, as its error, to
// have the file deleted rather than written.
//
//lint:ignore ST1012 a request, as fs.SkipDir is, not a failure
var DeleteFile = errors.New("settings: delete the file")

// readMode reads the file at path and its permissions (0o644 for a file
// that does not exist yet), refusing anything but a regular file.
func readMode(path string) ([]byte, fs.FileMode, error) {
	real, ok, err := resolve(path)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0o644, nil
	}
	return readRegular(real, path)
}

// deleteIfSame deletes the file at path, unless it no longer holds old;
// then it reports false and deletes nothing.
func deleteIfSame(path string, old []byte) (bool, error) {
	now, _, err := readMode(path)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(now, old) || now == nil {
		return false, nil
	}
	return true, os.Remove(path)
}

// writeIfSame writes out to path through a temporary file, unless path no
// longer holds old; then it reports false and writes nothing.
func writeIfSame(path string, old, out []byte, mode fs.FileMode) (bool, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return false, err
	}
	name := tmp.Name()
	defer os.Remove(name) // after a successful rename there is nothing left to remove
	_, err = tmp.Write(out)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if o, ok := ownerFor(path); ok && err == nil {
		err = chown(name, o) // as root: the owner of the file replaced, or of its folder
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	now, _, err := readMode(path)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(now, old) || (now == nil) != (old == nil) {
		return false, nil
	}
	if err := os.Rename(name, path); err != nil {
		return false, err
	}
	return true, nil
}

// lock creates the lock file at path exclusively, waiting while another
// writer holds it, and returns the function that releases it.
func lock(path string) (func(), error) {
	deadline := time.Now().Add(lockTimeout)
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(path) // left by a writer that died
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (%s; remove it if no hookctl is running)", ErrLocked, path)
		}
		time.Sleep(wait)
		wait = min(wait*2, 50*time.Millisecond)
	}
}

// withPath sets the file of a *SyntaxError.
func withPath(err error, path string) error {
	var se *SyntaxError
	if errors.As(err, &se) && se.Path == "" {
		se.Path = path
	}
	return err
}
