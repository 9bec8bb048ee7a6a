package settings

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary act as one concurrent writer for
// TestConcurrentInstall: with SETTINGS_TEST_INSTALL=path:n it installs
// entry n into path and exits.
func TestMain(m *testing.M) {
	if v := os.Getenv("SETTINGS_TEST_INSTALL"); v != "" {
		var n int
		var path string
		if _, err := fmt.Sscanf(v, "%d:%s", &n, &path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if _, err := Install(path, concurrentEntry(n)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func concurrentEntry(n int) Entry {
	return Entry{Event: []string{"PreToolUse", "PostToolUse", "Stop", "SessionStart"}[n%4],
		Matcher: []string{"Bash", "", "Edit|Write"}[n%3],
		Handler: Handler{Command: fmt.Sprintf("/usr/local/bin/hook-%02d", n), Timeout: float64(n + 1)}}
}

// TestConcurrentInstall starts 20 processes that install 20 different
// entries into one file at once: all 20 are there afterwards, the file is
// valid, the rest of it is unchanged, and no lock or temporary file is left.
func TestConcurrentInstall(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	orig := "{\n    \"model\": \"opus\",\n    \"big\": 123456789012345678901234567890\n}\n"
	require.NoError(t, os.WriteFile(path, []byte(orig), 0o640))
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	outs := make([][]byte, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("SETTINGS_TEST_INSTALL=%d:%s", i, path))
			<-start
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i], "writer %d: %s", i, outs[i])
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	hs, err := Parse(data)
	require.NoError(t, err)
	require.Len(t, hs, n)
	for i := range n {
		e := concurrentEntry(i)
		found := 0
		for _, h := range hs {
			if h.Event == e.Event && h.Matcher == e.Matcher && h.Handler.Same(e.Handler) && h.Handler.Timeout == e.Handler.Timeout {
				found++
			}
		}
		assert.Equal(t, 1, found, "entry %d", i)
	}
	assert.Contains(t, string(data), "\"big\": 123456789012345678901234567890,\n    \"hooks\": {\n        \"")
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "permissions not kept")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "lock or temporary files left behind")

	// Removing all 20, one process after another, gives the original back.
	for i := range n {
		_, err := Uninstall(path, concurrentEntry(i))
		require.NoError(t, err)
	}
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, orig, string(data))
}

// TestUpdateNotices checks that Update redoes its edit when another writer
// changed the file without the lock, and that it writes nothing when the
// edit changes nothing.
func TestUpdateNotices(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"a":1}`), 0o600))
	calls := 0
	changed, err := Update(path, func(b []byte) ([]byte, error) {
		calls++
		if calls == 1 { // someone else writes meanwhile
			require.NoError(t, os.WriteFile(path, []byte(`{"a":2}`), 0o600))
		}
		return append([]byte(nil), b[:len(b)-1]...), nil
	})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, 2, calls)
	got, _ := os.ReadFile(path)
	assert.Equal(t, `{"a":2`, string(got), "the edit was not redone on the new bytes")

	fi1, _ := os.Stat(path)
	changed, err = Update(path, func(b []byte) ([]byte, error) { return b, nil })
	require.NoError(t, err)
	assert.False(t, changed)
	fi2, _ := os.Stat(path)
	assert.True(t, os.SameFile(fi1, fi2), "an edit that changed nothing replaced the file")
}

// TestUpdateThroughSymlink checks that a settings file that is a link (to
// a dotfiles repository, say) stays a link and its target is written.
func TestUpdateThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles-settings.json")
	link := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(target, []byte("{}\n"), 0o600))
	require.NoError(t, os.Symlink(target, link))
	changed, err := Install(link, goldenEntry)
	require.NoError(t, err)
	assert.True(t, changed)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&os.ModeSymlink != 0, "the link was replaced by a file")
	hs, err := ReadFile(target)
	require.NoError(t, err)
	assert.Len(t, hs, 1)
}

// TestLockTimeout checks that a held lock makes Update give up with
// ErrLocked, and that a stale one is taken over.
func TestLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	require.NoError(t, os.WriteFile(path+".lock", nil, 0o600))
	old := lockTimeout
	lockTimeout = 0
	defer func() { lockTimeout = old }()
	_, err := Install(path, goldenEntry)
	require.ErrorIs(t, err, ErrLocked)
	_, statErr := os.Stat(path)
	assert.True(t, os.IsNotExist(statErr))

	oldStale := staleLock
	staleLock = 0
	defer func() { staleLock = oldStale }()
	changed, err := Install(path, goldenEntry)
	require.NoError(t, err)
	assert.True(t, changed)
}
