package clientrun

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativePackage: each platform Claude Code ships for has its package,
// musl Linux its own; any other platform is an error.
func TestNativePackage(t *testing.T) {
	for _, c := range []struct {
		goos, goarch string
		musl         bool
		want         string
	}{
		{"linux", "amd64", false, "@anthropic-ai/claude-code-linux-x64"},
		{"linux", "arm64", false, "@anthropic-ai/claude-code-linux-arm64"},
		{"linux", "amd64", true, "@anthropic-ai/claude-code-linux-x64-musl"},
		{"linux", "arm64", true, "@anthropic-ai/claude-code-linux-arm64-musl"},
		{"darwin", "arm64", false, "@anthropic-ai/claude-code-darwin-arm64"},
		{"darwin", "amd64", true, "@anthropic-ai/claude-code-darwin-x64"}, // musl is Linux's only
		{"windows", "amd64", false, "@anthropic-ai/claude-code-win32-x64"},
		{"windows", "arm64", false, "@anthropic-ai/claude-code-win32-arm64"},
	} {
		got, err := nativePackage(c.goos, c.goarch, c.musl)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s/%s musl=%v", c.goos, c.goarch, c.musl)
	}
	for _, p := range [][2]string{{"linux", "386"}, {"freebsd", "amd64"}, {"windows", "386"}, {"linux", "riscv64"}} {
		_, err := nativePackage(p[0], p[1], false)
		assert.ErrorContains(t, err, "no Claude Code package is made for "+p[0]+"/"+p[1])
	}
}

// TestMusl: musl's loader without glibc's is musl (Alpine); glibc's
// loader, even beside musl's (Debian with musl-tools), is glibc.
func TestMusl(t *testing.T) {
	root := func(files ...string) string {
		r := t.TempDir()
		for _, f := range files {
			p := filepath.Join(r, filepath.FromSlash(f))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, nil, 0o644))
		}
		return r
	}
	assert.True(t, muslIn(root("lib/ld-musl-x86_64.so.1")))
	assert.True(t, muslIn(root("lib/ld-musl-aarch64.so.1", "usr/lib/libc.so")))
	assert.False(t, muslIn(root("lib64/ld-linux-x86-64.so.2", "lib/ld-musl-x86_64.so.1")))
	assert.False(t, muslIn(root("lib/ld-linux-aarch64.so.1")))
	assert.False(t, muslIn(root("lib/x86_64-linux-gnu/libc.so.6", "lib/ld-musl-x86_64.so.1")))
	assert.False(t, muslIn(root()))
}

// TestInstallDir: each version has a folder of its own, under
// Cache when set (which may be any existing folder), else
// under the user cache folder.
func TestInstallDir(t *testing.T) {
	cache := t.TempDir()
	d, err := Claude{Cache: cache}.installDir("2.1.336")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cache, "2.1.336"), d)

	d, err = Claude{}.installDir("2.1.336")
	require.NoError(t, err)
	uc, err := os.UserCacheDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(uc, "gohooks-e2e", "claude-code", "2.1.336"), d)
}

// TestFindClaudeChecksTheVersion: findClaude takes the native package's
// binary, or an old install's wrapper bin, only when it says it is the
// version asked for.
func TestFindClaudeChecksTheVersion(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake claude is a shell script")
	}
	fake := func(path, version string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\necho '"+version+" (Claude Code)'\n"), 0o755))
	}
	ctx := context.Background()
	dir := t.TempDir()
	native := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	fake(native, "2.1.336")
	got, ok := findClaude(ctx, dir, "2.1.336")
	assert.True(t, ok)
	assert.Equal(t, native, got)
	_, ok = findClaude(ctx, dir, "2.1.33")
	assert.False(t, ok, "a prefix of the version is another version")
	_, ok = findClaude(ctx, dir, "2.1.337")
	assert.False(t, ok)

	old := t.TempDir()
	wrapper := filepath.Join(old, "node_modules", ".bin", "claude")
	fake(wrapper, "2.1.332")
	got, ok = findClaude(ctx, old, "2.1.332")
	assert.True(t, ok)
	assert.Equal(t, wrapper, got)
	_, ok = findClaude(ctx, t.TempDir(), "2.1.332")
	assert.False(t, ok)
}

// TestResolveVersion: an exact version needs no npm; a tag does, and
// without npm it says so.
func TestResolveVersion(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	v, err := resolveVersion(context.Background(), "@anthropic-ai/claude-code-linux-x64", "2.1.336")
	require.NoError(t, err)
	assert.Equal(t, "2.1.336", v)
	_, err = resolveVersion(context.Background(), "@anthropic-ai/claude-code-linux-x64", "latest")
	assert.ErrorContains(t, err, "npm is needed to find which version @anthropic-ai/claude-code-linux-x64@latest is")
}

func TestCodexInstallDir(t *testing.T) {
	dir := t.TempDir()
	d, err := Codex{Version: "0.171.0", Dir: dir}.installDir()
	require.NoError(t, err)
	assert.Equal(t, dir, d, "Dir is the folder itself")
	d, err = Codex{Version: "0.170.0"}.installDir()
	if err == nil {
		assert.Equal(t, filepath.Join("gohooks-e2e", "codex", "0.170.0"), filepath.Join(filepath.Base(filepath.Dir(filepath.Dir(d))), filepath.Base(filepath.Dir(d)), filepath.Base(d)))
	}
	_, _, err = Codex{Bin: filepath.Join(dir, "no-codex"), BinHint: "-codex"}.Find(context.Background(), io.Discard)
	assert.ErrorIs(t, err, ErrCodexUnavailable)
	assert.Contains(t, err.Error(), "-codex=")
}
