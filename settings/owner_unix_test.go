//go:build unix

package settings

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// uidGid returns the owner of the file at path.
func uidGid(t *testing.T, path string) [2]int {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	st := fi.Sys().(*syscall.Stat_t)
	return [2]int{int(st.Uid), int(st.Gid)}
}

// TestUpdateAsRootKeepsTheUsersOwnership: run as root (hookctl under
// sudo), Update gives the folders and the file it creates in a user's
// folder to that user, keeps the owner of a file it replaces, and leaves
// a file it creates in root's folder to root.
func TestUpdateAsRootKeepsTheUsersOwnership(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving files away needs root; this test runs where go test runs as root (a container, CI)")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.Chown(home, 4321, 4322))
	user := [2]int{4321, 4322}

	ledger := filepath.Join(home, ".config", "hookctl", "installs.json")
	changed, err := Update(ledger, func([]byte) ([]byte, error) { return []byte("{}\n"), nil })
	require.NoError(t, err)
	require.True(t, changed)
	for _, p := range []string{filepath.Join(home, ".config"), filepath.Dir(ledger), ledger} {
		assert.Equal(t, user, uidGid(t, p), p)
	}
	// Written again: still the user's.
	_, err = Update(ledger, func([]byte) ([]byte, error) { return []byte("{\"files\":{}}\n"), nil })
	require.NoError(t, err)
	assert.Equal(t, user, uidGid(t, ledger))

	// A file of another owner in the user's folder keeps its owner.
	other := filepath.Join(home, "settings.json")
	require.NoError(t, os.WriteFile(other, []byte("{}"), 0o600))
	require.NoError(t, os.Chown(other, 4400, 4401))
	_, err = Update(other, func([]byte) ([]byte, error) { return []byte(`{"hooks":{}}`), nil })
	require.NoError(t, err)
	assert.Equal(t, [2]int{4400, 4401}, uidGid(t, other))
	fi, err := os.Stat(other)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the permissions kept too")

	// Root's own folder: root's file.
	mine := filepath.Join(root, "etc", "managed-settings.json")
	_, err = Update(mine, func([]byte) ([]byte, error) { return []byte("{}"), nil })
	require.NoError(t, err)
	rootOwner := uidGid(t, root)
	assert.Equal(t, rootOwner, uidGid(t, filepath.Dir(mine)))
	assert.Equal(t, rootOwner, uidGid(t, mine))
}
