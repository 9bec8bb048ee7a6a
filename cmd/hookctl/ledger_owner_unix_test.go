//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstallUnderSudoLeavesTheUsersFilesTheirs: hookctl run as root
// with a user's HOME (sudo without -H) writes the user's settings file
// and its install record (hookctl/installs.json under the user's
// configuration folder) owned by the user, as the folders they go in
// are, so that the user's own hookctl can still update and uninstall.
func TestInstallUnderSudoLeavesTheUsersFilesTheirs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving files away needs root; this test runs where go test runs as root (a container, CI)")
	}
	e := newEnv(t)
	for _, d := range []string{e.home, filepath.Join(e.home, ".claude")} {
		require.NoError(t, os.Chown(d, 4321, 4322))
	}
	_, errOut, code := e.run("install", "-scope", "user", "-event", "Stop", "--", "/opt/stopguard")
	require.Equal(t, 0, code, errOut)
	lf, err := ledgerFile()
	require.NoError(t, err)
	require.FileExists(t, lf, "install records the empty settings it found")
	for _, p := range []string{filepath.Join(e.home, ".claude", "settings.json"), filepath.Join(e.home, ".config"), filepath.Dir(lf), lf} {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		assert.Equal(t, [2]uint32{4321, 4322}, [2]uint32{st.Uid, st.Gid}, p)
	}
}
