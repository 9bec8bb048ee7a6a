//go:build linux

package settings

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRefusesDevice checks that a link to a character device is refused
// before anything is written: run as root, install used to replace the
// machine's /dev/null with a regular file. The device here is a private
// node with /dev/null's numbers, made in the test's own folder (only root
// may make one), so that even a bug writes nothing outside the test's
// folder; the test never links to /dev/null itself. Run as a user, the
// same check is covered by the links to a named pipe and a directory.
func TestRefusesDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a device node needs root; TestRefusesNamedPipe and TestRefusesDirectory cover links to other non-regular files")
	}
	dir := t.TempDir()
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat("/dev/null", &st))
	dev := filepath.Join(dir, "null")
	require.NoError(t, syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(st.Rdev)))
	assertRefused(t, dir, dev, "a character device")
	link := filepath.Join(dir, "settings.json")
	require.NoError(t, os.Symlink(dev, link))
	assertRefused(t, dir, link, "a symbolic link to "+dev+", a character device")
}
