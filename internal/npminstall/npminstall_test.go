package npminstall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

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
	assert.Equal(t, []string{bad + ".lock"}, left, "the temporary folder is removed; the lock file stays")
}

// fakeNpm puts on PATH an npm that installs a program file "prog" into
// its --prefix, and appends a line to count for each install; with
// gate set, it first creates gate+".started" and waits until gate
// exists. It returns the find function for prog.
func fakeNpm(t *testing.T, count, gate string) func(string) (string, bool) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	path := t.TempDir()
	script := "#!/bin/sh\necho x >> " + count + "\n"
	if gate != "" {
		script += ": > " + gate + ".started\nwhile [ ! -e " + gate + " ]; do sleep 0.05; done\n"
	}
	script += "echo prog > \"$3/prog\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(path, "npm"), []byte(script), 0o755))
	t.Setenv("PATH", path+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func(d string) (string, bool) {
		p := filepath.Join(d, "prog")
		_, err := os.Stat(p)
		return p, err == nil
	}
}

// installs returns how many times the fake npm ran.
func installs(t *testing.T, count string) int {
	t.Helper()
	b, err := os.ReadFile(count)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(t, err)
	return bytes.Count(b, []byte("\n"))
}

// TestInstallIntoExistingFolder: a dir that exists without the program —
// empty, or a broken npm install — is replaced by the install; a dir that
// holds anything else is refused and left as it was.
func TestInstallIntoExistingFolder(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	find := fakeNpm(t, count, "")
	cache := t.TempDir()

	empty := filepath.Join(cache, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	bin, err := Install(context.Background(), empty, "x@1", io.Discard, find)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(empty, "prog"), bin)

	broken := filepath.Join(cache, "broken")
	require.NoError(t, os.MkdirAll(filepath.Join(broken, "node_modules", "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "package.json"), []byte(`{"dependencies":{"x":"0.9"}}`), 0o644))
	killed := filepath.Join(cache, "broken.installing-123") // a killed install's leftover
	require.NoError(t, os.Mkdir(killed, 0o755))
	old := time.Now().Add(-2 * leftoverAge)
	require.NoError(t, os.Chtimes(killed, old, old))
	young := filepath.Join(cache, "broken.installing-456") // another process's install under way
	require.NoError(t, os.Mkdir(young, 0o755))
	bin, err = Install(context.Background(), broken, "x@1", io.Discard, find)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(broken, "prog"), bin)
	assert.NoDirExists(t, filepath.Join(broken, "node_modules", "x"), "the broken install is gone")
	left, _ := filepath.Glob(filepath.Join(cache, "*.installing-*"))
	assert.Equal(t, []string{young}, left, "the old leftover and the moved-aside install are removed, the young one kept")

	mine := filepath.Join(cache, "mine")
	require.NoError(t, os.MkdirAll(mine, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("keep"), 0o644))
	_, err = Install(context.Background(), mine, "x@1", io.Discard, find)
	assert.True(t, errors.Is(err, ErrNotOurs), "%v", err)
	assert.Contains(t, err.Error(), `"notes.txt"`)
	b, err := os.ReadFile(filepath.Join(mine, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
	assert.Equal(t, 2, installs(t, count), "npm ran for the empty and the broken folder only")
}

// signalWriter is a log that closes its channel when a line holding what
// is written.
type signalWriter struct {
	what string
	ch   chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(w.what)) {
		w.once.Do(func() { close(w.ch) })
	}
	return len(p), nil
}

// TestInstallOnceForConcurrentCallers: a second caller that comes while
// the first one's npm runs waits for it and uses its install: npm runs
// once.
func TestInstallOnceForConcurrentCallers(t *testing.T) {
	tmp := t.TempDir()
	count, gate := filepath.Join(tmp, "count"), filepath.Join(tmp, "gate")
	find := fakeNpm(t, count, gate)
	dir := filepath.Join(t.TempDir(), "v1")

	type result struct {
		bin string
		err error
	}
	first := make(chan result, 1)
	go func() {
		bin, err := Install(context.Background(), dir, "x@1", io.Discard, find)
		first <- result{bin, err}
	}()
	require.Eventually(t, func() bool { _, err := os.Stat(gate + ".started"); return err == nil }, time.Minute, 10*time.Millisecond, "the first npm started")

	waiting := &signalWriter{what: "waiting for another process installing into " + dir, ch: make(chan struct{})}
	second := make(chan result, 1)
	go func() {
		bin, err := Install(context.Background(), dir, "x@1", waiting, find)
		second <- result{bin, err}
	}()
	<-waiting.ch // the second caller waits on the lock
	require.NoError(t, os.WriteFile(gate, nil, 0o644))
	r1, r2 := <-first, <-second
	require.NoError(t, r1.err)
	require.NoError(t, r2.err)
	assert.Equal(t, filepath.Join(dir, "prog"), r1.bin)
	assert.Equal(t, r1.bin, r2.bin)
	assert.Equal(t, 1, installs(t, count))
}

// TestLockWaitEndsWithTheContext: a caller waiting for a held lock gives
// up when its context ends.
func TestLockWaitEndsWithTheContext(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		t.Skip("no file lock here")
	}
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := lock(context.Background(), path, func() {})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	_, err = lock(ctx, path, cancel) // cancels once it waits
	assert.ErrorIs(t, err, context.Canceled)
	unlock()
	unlock2, err := lock(context.Background(), path, func() { t.Error("the lock was released") })
	require.NoError(t, err)
	unlock2()
}
