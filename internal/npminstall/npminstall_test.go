package npminstall

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstallFound: a program find finds in dir is returned without npm.
func TestInstallFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no npm
	dir := t.TempDir()
	bin, err := Install(context.Background(), dir, "x@1", &bytes.Buffer{}, func(d string) (string, bool) {
		return filepath.Join(d, "x"), d == dir
	})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "x"), bin)
}

// TestInstallWithoutNpm: nothing in dir and no npm is ErrNoNpm.
func TestInstallWithoutNpm(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Install(context.Background(), filepath.Join(t.TempDir(), "v1"), "x@1", &bytes.Buffer{}, func(string) (string, bool) { return "", false })
	assert.True(t, errors.Is(err, ErrNoNpm), "%v", err)
	assert.Contains(t, err.Error(), "x@1 is not installed in")
}

// TestInstallRuns: npm install runs with the arguments into a fresh
// folder that is moved into place, and find then finds the program; a
// failing npm is ErrNpm and leaves no folder.
func TestInstallRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	path := t.TempDir()
	npm := filepath.Join(path, "npm")
	// The fake npm writes its arguments to <prefix>/args, or fails when
	// the spec is "bad@1".
	require.NoError(t, os.WriteFile(npm, []byte("#!/bin/sh\nfor a; do last=$a; done\n[ \"$last\" = bad@1 ] && exit 3\necho \"$@\" > \"$3/args\"\n"), 0o755))
	t.Setenv("PATH", path+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := filepath.Join(t.TempDir(), "cache", "v1")
	find := func(d string) (string, bool) {
		_, err := os.Stat(filepath.Join(d, "args"))
		return filepath.Join(d, "args"), err == nil
	}
	var log bytes.Buffer
	bin, err := Install(context.Background(), dir, "x@1", &log, find, "--engine-strict=false")
	require.NoError(t, err, log.String())
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	assert.Regexp(t, `^install --prefix \S+ --no-audit --no-fund --engine-strict=false x@1\n$`, string(b))
	assert.Contains(t, log.String(), "installing x@1 with npm into "+dir)

	bad := filepath.Join(t.TempDir(), "cache", "v2")
	_, err = Install(context.Background(), bad, "bad@1", &log, find)
	assert.True(t, errors.Is(err, ErrNpm), "%v", err)
	assert.NoDirExists(t, bad)
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(bad), "*"))
	assert.Empty(t, left, "the temporary folder is removed")
}
