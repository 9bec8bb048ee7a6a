package settings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// symlinkOrSkip makes a symbolic link, or skips where the system does not
// let the test (Windows without the privilege) or makes links that cannot
// be read back (Wine 8, whose os.Symlink succeeds and whose Lstat of the
// link then finds nothing).
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symbolic links need privileges on Windows: %v", err)
		}
		require.NoError(t, err)
	}
	if fi, err := os.Lstat(link); runtime.GOOS == "windows" && (err != nil || fi.Mode()&fs.ModeSymlink == 0) {
		t.Skipf("this system's symbolic links cannot be read back (Lstat: %v)", err)
	}
}

// assertRefused runs every entry point that reads or writes a settings
// file on path, which is not a regular file (nor a link to one), and
// checks each refuses it with an ErrNotRegular naming path and want,
// without blocking (each call must return; a named pipe opened for
// reading without O_NONBLOCK would wait for a writer forever), and that
// dir holds the same entries afterwards: no lock, no temporary file, the
// node itself untouched.
func assertRefused(t *testing.T, dir, path, want string) {
	t.Helper()
	before := names(t, dir)
	fi0, err := os.Lstat(path)
	require.NoError(t, err)
	calls := map[string]func() error{
		"Install":   func() error { _, err := Install(path, goldenEntry); return err },
		"Uninstall": func() error { _, err := Uninstall(path, goldenEntry); return err },
		"Update": func() error {
			_, err := Update(path, func(b []byte) ([]byte, error) { return append(b, 'x'), nil })
			return err
		},
		"Update-DeleteFile": func() error {
			_, err := Update(path, func([]byte) ([]byte, error) { return nil, DeleteFile })
			return err
		},
		"ReadFile":    func() error { _, err := ReadFile(path); return err },
		"ReadRegular": func() error { _, err := ReadRegular(path); return err },
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s(%s) is still blocked after a minute", name, path)
		}
		require.Error(t, err, name)
		assert.True(t, errors.Is(err, ErrNotRegular), "%s: %v", name, err)
		assert.Contains(t, err.Error(), path, name)
		assert.Contains(t, err.Error(), want, name)
		assert.Equal(t, before, names(t, dir), "%s left something behind or removed the node", name)
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, fi0.Mode(), fi.Mode(), "%s changed the node", name)
		if fi0.Mode().IsRegular() || fi0.Mode()&fs.ModeSymlink != 0 {
			assert.Equal(t, fi0.ModTime(), fi.ModTime(), "%s changed the node", name)
		}
	}
}

// TestRefusesDirectory checks a settings path that is a directory, and a
// link to one.
func TestRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "settings.json")
	require.NoError(t, os.Mkdir(sub, 0o755))
	assertRefused(t, dir, sub, "a directory")

	link := filepath.Join(dir, "link.json")
	symlinkOrSkip(t, sub, link)
	assertRefused(t, dir, link, "a symbolic link to "+sub+", a directory")
}

// TestRefusesDanglingLink checks that a link to nothing is neither
// replaced by a file nor written through (which would create its target).
func TestRefusesDanglingLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "gone", "settings.json")
	link := filepath.Join(dir, "settings.json")
	symlinkOrSkip(t, target, link)
	assertRefused(t, dir, link, "which does not exist")
	_, err := os.Lstat(filepath.Join(dir, "gone"))
	assert.True(t, errors.Is(err, fs.ErrNotExist), "the link's folder was created")

	// A link to a link to nothing, and a loop.
	link2 := filepath.Join(dir, "second.json")
	symlinkOrSkip(t, link, link2)
	assertRefused(t, dir, link2, "which does not exist")
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	symlinkOrSkip(t, b, a)
	symlinkOrSkip(t, a, b)
	assertRefused(t, dir, a, "cannot be followed")
}

// TestLinkChainToRegularFile checks that a chain of links to a regular
// file is written through: both links stay, the target gets the entry,
// and Uninstall gives its bytes back.
func TestLinkChainToRegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	orig := "{\n  \"model\": \"opus\"\n}\n"
	require.NoError(t, os.WriteFile(target, []byte(orig), 0o600))
	mid, link := filepath.Join(dir, "mid.json"), filepath.Join(dir, "settings.json")
	symlinkOrSkip(t, target, mid)
	symlinkOrSkip(t, mid, link)
	changed, err := Install(link, goldenEntry)
	require.NoError(t, err)
	assert.True(t, changed)
	for _, l := range []string{mid, link} {
		fi, err := os.Lstat(l)
		require.NoError(t, err)
		assert.True(t, fi.Mode()&fs.ModeSymlink != 0, "%s was replaced", l)
	}
	data, err := ReadRegular(link)
	require.NoError(t, err)
	assert.Contains(t, string(data), goldenEntry.Handler.Command)
	n, err := Uninstall(link, goldenEntry)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, orig, string(got))
	assert.Equal(t, []string{"mid.json", "real.json", "settings.json"}, names(t, dir))
}

// TestReadRegularMissing checks that ReadRegular reports a missing file
// as os.ReadFile does, and ReadFile as no hooks.
func TestReadRegularMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.json")
	_, err := ReadRegular(path)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "%v", err)
	assert.False(t, errors.Is(err, ErrNotRegular))
	hs, err := ReadFile(path)
	assert.NoError(t, err)
	assert.Empty(t, hs)
}

// TestUpdateDeleteFile checks that an edit returning DeleteFile deletes
// the file and its lock, and changes nothing when there is no file.
func TestUpdateDeleteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	del := func([]byte) ([]byte, error) { return nil, DeleteFile }
	changed, err := Update(path, del)
	require.NoError(t, err)
	assert.False(t, changed)
	require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o600))
	changed, err = Update(path, del)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Empty(t, names(t, dir))
}
