// Package filekind names the type of a file in messages ("a named pipe
// (FIFO)"), so that package settings and hookctl, which refuse to read or
// replace anything but a regular file, say the same words.
package filekind

import "io/fs"

// Name says what a file of mode m is, with its article: "a regular
// file", "a directory", "a symbolic link", "a named pipe (FIFO)", "a
// socket", "a character device", "a block device" or "a special file".
func Name(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}
