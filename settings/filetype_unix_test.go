//go:build unix

package settings

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRefusesNamedPipe checks that a named pipe, and a link to one, is
// refused at once: install used to wait forever for a writer, holding
// its lock and leaving a temporary file.
func TestRefusesNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "settings.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	assertRefused(t, dir, fifo, "a named pipe")

	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(fifo, link))
	assertRefused(t, dir, link, "a symbolic link to "+fifo+", a named pipe")
}

// TestRefusesSocket checks a Unix socket where the settings file should be.
func TestRefusesSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no Unix sockets here: %v", err)
	}
	defer l.Close()
	assertRefused(t, dir, sock, "a socket")
}
