//go:build linux

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInstallRefusesDevice checks a settings file that is a character
// device, or links to one: run as root, install used to replace the
// machine's /dev/null with a regular file. The device is a private node
// with /dev/null's numbers in the test's folder (only root may make
// one), so that even a bug writes nothing outside it.
func TestInstallRefusesDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a device node needs root; the named-pipe, directory and dangling-link tests cover the same check")
	}
	e, _ := codexEnv(t)
	dir := filepath.Join(e.project, ".claude")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat("/dev/null", &st))
	dev := filepath.Join(dir, "null")
	require.NoError(t, syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(st.Rdev)))
	assertCLIRefuses(t, e, dev, "a character device")
	link := filepath.Join(dir, "settings.json")
	require.NoError(t, os.Symlink(dev, link))
	assertCLIRefuses(t, e, link, "a symbolic link to "+dev+", a character device")
	assertCLIRefuses(t, e, link, "a character device", "-agent", "codex")
}
