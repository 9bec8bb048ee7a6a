package hook

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/wire"
)

// This file fetches the Agent SDK package for the drift test
// (drift_test.go): npm packs @anthropic-ai/claude-agent-sdk into the
// user cache folder once per version, and the test reads the tarball
// from there, so reruns need neither npm nor the network.

const (
	sdkPackage = "@anthropic-ai/claude-agent-sdk"
	// verifiedSDK is the SDK version the library is verified against, and
	// verifiedClaudeCode the Claude Code version it was built for (its
	// package.json's claudeCodeVersion).
	verifiedSDK        = "0.3.336"
	verifiedClaudeCode = "2.1.336"
	// maxSDKFile bounds the size of a file read from the tarball.
	maxSDKFile = 64 << 20
)

// sdkFiles is what the drift test reads from the SDK package.
type sdkFiles struct {
	Version           string // package.json's version
	ClaudeCodeVersion string // package.json's claudeCodeVersion
	SDK               string // sdk.d.ts
	Tools             string // sdk-tools.d.ts
}

// sdkCacheDir is the folder that keeps the packed tarballs.
func sdkCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "gohooks-hook", "agent-sdk"), nil
}

// exactVersion matches a version npm packs as is, not a tag or range.
var exactVersion = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// packSDK returns the path of the tarball of the SDK at version (an exact
// version, "latest" or another npm tag or range), packing it with npm
// into the cache when it is not there yet.
func packSDK(ctx context.Context, version string) (string, error) {
	dir, err := sdkCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache folder: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	npm, err := exec.LookPath("npm")
	if !exactVersion.MatchString(version) {
		// A tag moves: ask the registry what it names today.
		if err != nil {
			return "", fmt.Errorf("npm is needed to resolve %s@%s: %w", sdkPackage, version, err)
		}
		out, err := runNPM(ctx, npm, dir, "view", sdkPackage+"@"+version, "version")
		if err != nil {
			return "", err
		}
		lines := strings.Fields(string(out))
		if len(lines) == 0 || !exactVersion.MatchString(lines[len(lines)-1]) {
			return "", fmt.Errorf("npm view %s@%s version printed %q, not a version", sdkPackage, version, out)
		}
		version = lines[len(lines)-1]
	}
	tarball := filepath.Join(dir, "claude-agent-sdk-"+version+".tgz")
	if _, err := os.Stat(tarball); err == nil {
		return tarball, nil
	}
	if err != nil {
		return "", fmt.Errorf("npm is needed to pack %s@%s: %w", sdkPackage, version, err)
	}
	tmp, err := os.MkdirTemp(dir, "pack-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := runNPM(ctx, npm, tmp, "pack", sdkPackage+"@"+version); err != nil {
		return "", err
	}
	packed, err := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack %s@%s left %d tarballs, want 1", sdkPackage, version, len(packed))
	}
	// The rename is atomic: a concurrent run sees no half-written file.
	if err := os.Rename(packed[0], tarball); err != nil {
		return "", err
	}
	return tarball, nil
}

// runNPM runs npm with args in dir and returns its standard output.
func runNPM(ctx context.Context, npm, dir string, args ...string) ([]byte, error) {
	args = append(args, "--fetch-retries=1", "--fetch-timeout=60000", "--no-update-notifier", "--no-fund", "--no-audit")
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 600 {
			msg = msg[:600] + "…"
		}
		return nil, fmt.Errorf("npm %s: %w: %s", strings.Join(args[:2], " "), err, msg)
	}
	return out, nil
}

// readSDK reads the files the drift test needs from a packed tarball.
func readSDK(tarball string) (*sdkFiles, error) {
	f, err := os.Open(tarball)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(tarball), err)
	}
	want := map[string]*string{}
	var pkg string
	files := &sdkFiles{}
	want["package/package.json"] = &pkg
	want["package/sdk.d.ts"] = &files.SDK
	want["package/sdk-tools.d.ts"] = &files.Tools
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(tarball), err)
		}
		dst := want[h.Name]
		if dst == nil || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxSDKFile {
			return nil, fmt.Errorf("%s: %s has %d bytes, more than %d", filepath.Base(tarball), h.Name, h.Size, maxSDKFile)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", filepath.Base(tarball), h.Name, err)
		}
		*dst = string(b)
		delete(want, h.Name)
	}
	for name := range want {
		return nil, fmt.Errorf("%s has no %s", filepath.Base(tarball), name)
	}
	var meta struct {
		Name              string `json:"name"`
		Version           string `json:"version"`
		ClaudeCodeVersion string `json:"claudeCodeVersion"`
	}
	if err := wire.Unmarshal([]byte(pkg), &meta); err != nil {
		return nil, fmt.Errorf("%s: package.json: %w", filepath.Base(tarball), err)
	}
	if meta.Name != sdkPackage {
		return nil, fmt.Errorf("%s: package.json names %q, not %s", filepath.Base(tarball), meta.Name, sdkPackage)
	}
	files.Version, files.ClaudeCodeVersion = meta.Version, meta.ClaudeCodeVersion
	return files, nil
}

// loadSDK returns the SDK files at version, or skips the test with one
// message when npm or the network is missing. A cached tarball that
// cannot be read is packed again once.
func loadSDK(t *testing.T, version string) *sdkFiles {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	for attempt := 0; ; attempt++ {
		tarball, err := packSDK(ctx, version)
		if err != nil {
			t.Skipf("drift: skipped: %s@%s could not be packed (npm and the registry are needed once per version): %v", sdkPackage, version, err)
		}
		files, err := readSDK(tarball)
		if err == nil {
			return files
		}
		if attempt > 0 {
			t.Fatalf("drift: %v", err)
		}
		t.Logf("drift: packing again: the cached %v", err)
		if err := os.Remove(tarball); err != nil {
			t.Fatalf("drift: %v", err)
		}
	}
}

// writeTarball writes a gzipped tarball holding files (name → content).
func writeTarball(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, content := range files {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(content))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

func sdkTarballFiles(pkg string) map[string]string {
	return map[string]string{
		"package/package.json":   pkg,
		"package/sdk.d.ts":       "export declare const HOOK_EVENTS: readonly ['Stop'];",
		"package/sdk-tools.d.ts": "export interface BashInput { command: string }",
		"package/README.md":      "not read",
	}
}

func TestReadSDK(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tgz")
	writeTarball(t, good, sdkTarballFiles(`{"name":"@anthropic-ai/claude-agent-sdk","version":"9.9.9","claudeCodeVersion":"8.8.8","other":1}`))
	files, err := readSDK(good)
	require.NoError(t, err)
	assert.Equal(t, "9.9.9", files.Version)
	assert.Equal(t, "8.8.8", files.ClaudeCodeVersion)
	assert.Contains(t, files.SDK, "HOOK_EVENTS")
	assert.Contains(t, files.Tools, "BashInput")

	other := filepath.Join(dir, "other.tgz")
	writeTarball(t, other, sdkTarballFiles(`{"name":"left-pad","version":"1.0.0"}`))
	_, err = readSDK(other)
	assert.ErrorContains(t, err, "left-pad")

	partial := sdkTarballFiles(`{"name":"@anthropic-ai/claude-agent-sdk"}`)
	delete(partial, "package/sdk-tools.d.ts")
	missing := filepath.Join(dir, "missing.tgz")
	writeTarball(t, missing, partial)
	_, err = readSDK(missing)
	assert.ErrorContains(t, err, "sdk-tools.d.ts")

	garbage := filepath.Join(dir, "garbage.tgz")
	require.NoError(t, os.WriteFile(garbage, []byte("not a tarball"), 0o644))
	_, err = readSDK(garbage)
	assert.Error(t, err)
	_, err = readSDK(filepath.Join(dir, "absent.tgz"))
	assert.Error(t, err)
}

// TestPackSDKCache shows that a cached tarball needs no npm, and that a
// tag cannot be resolved without it.
func TestPackSDKCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("LocalAppData", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	dir, err := sdkCacheDir()
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	cached := filepath.Join(dir, "claude-agent-sdk-1.2.3.tgz")
	writeTarball(t, cached, sdkTarballFiles(`{"name":"@anthropic-ai/claude-agent-sdk","version":"1.2.3"}`))

	got, err := packSDK(context.Background(), "1.2.3")
	require.NoError(t, err)
	assert.Equal(t, cached, got)

	_, err = packSDK(context.Background(), "1.2.4")
	assert.ErrorContains(t, err, "npm is needed to pack")
	_, err = packSDK(context.Background(), "latest")
	assert.ErrorContains(t, err, "npm is needed to resolve")
}
