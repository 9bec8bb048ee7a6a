package filekind

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestName checks the words of each file type.
func TestName(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		fs.ModeDir | 0o755: "a directory", fs.ModeNamedPipe: "a named pipe (FIFO)", fs.ModeSocket: "a socket",
		fs.ModeDevice | fs.ModeCharDevice: "a character device", fs.ModeDevice: "a block device",
		fs.ModeSymlink | 0o777: "a symbolic link", fs.ModeIrregular: "a special file", 0o644: "a regular file",
	} {
		assert.Equal(t, want, Name(m), "%v", m)
	}
}
