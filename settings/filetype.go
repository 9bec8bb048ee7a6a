package settings

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gohooks/hook/internal/filekind"
)

// ErrNotRegular is the error, wrapped with the path and what is there, of
// a settings path that exists but is not a regular file or a symbolic link
// (chain) to one: a device, a named pipe, a socket, a directory, or a
// link to any of those or to nothing. [ReadFile], [ReadRegular] and
// [Update] refuse such a path before they open it for writing, never
// block on it, and leave nothing behind.
var ErrNotRegular = errors.New("not a regular file")

// fileTypeError is an ErrNotRegular naming the path and what it is.
type fileTypeError struct {
	path string
	what string // "a named pipe (FIFO)", "a symbolic link to /dev/null, a character device", ...
	hint string // what the user can do, or ""
}

func (e *fileTypeError) Error() string {
	s := fmt.Sprintf("%s is %s, not a regular file: refusing to read or write through it", e.path, e.what)
	if e.hint != "" {
		s += " (" + e.hint + ")"
	}
	return s
}

func (e *fileTypeError) Unwrap() error { return ErrNotRegular }

// resolve returns the regular file that path names, following symbolic
// links (in the path's folders too), and whether it exists. A path that
// does not exist is returned as it is. Anything else than a regular file
// or a link (chain) to one is an ErrNotRegular: resolve only looks, it
// opens nothing.
func resolve(path string) (string, bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, false, nil
	}
	if err != nil {
		return "", false, err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		if !fi.Mode().IsRegular() {
			return "", false, &fileTypeError{path, filekind.Name(fi.Mode()), ""}
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real // a link among the folders
		}
		return path, true, nil
	}
	target, _ := os.Readlink(path)
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, &fileTypeError{path, fmt.Sprintf("a symbolic link to %s, which does not exist", target), "create the file, or remove the link"}
	}
	if err != nil {
		return "", false, &fileTypeError{path, fmt.Sprintf("a symbolic link to %s that cannot be followed", target), unwrapPath(err).Error()}
	}
	fi, err = os.Stat(real)
	if err != nil {
		return "", false, err
	}
	if !fi.Mode().IsRegular() {
		return "", false, &fileTypeError{path, fmt.Sprintf("a symbolic link to %s, %s", real, filekind.Name(fi.Mode())), ""}
	}
	return real, true, nil
}

// unwrapPath returns the error inside a *fs.PathError, whose path the
// message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadRegular reads the file at path as [os.ReadFile] does (a file that
// does not exist is an error that matches [fs.ErrNotExist]), but refuses
// anything but a regular file or a symbolic link to one with an error
// that matches [ErrNotRegular], without opening it: a named pipe never
// blocks the reader, and a device is never read.
func ReadRegular(path string) ([]byte, error) {
	real, ok, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
	data, _, err := readRegular(real, path)
	return data, err
}

// readRegular opens the regular file real (named path in errors) without
// blocking, checks that what it opened is still a regular file, and reads
// it; it returns its permissions too.
func readRegular(real, path string) ([]byte, fs.FileMode, error) {
	f, err := os.OpenFile(real, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		// Replaced between the look and the open.
		return nil, 0, &fileTypeError{path, filekind.Name(fi.Mode()), ""}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, fi.Mode().Perm(), nil
}
