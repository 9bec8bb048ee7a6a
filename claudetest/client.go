package claudetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gohooks/hook/internal/npminstall"
)

// Version is the Claude Code release claudetest installs and is verified
// against. $HOOK_E2E_CLAUDE_VERSION installs another; other versions may
// word their messages differently.
const Version = "2.1.332"

// The environment variables claudetest reads. They are documented in the
// package doc; none is needed beyond HOOK_E2E=1.
const (
	envEnable  = "HOOK_E2E"
	envBin     = "CLAUDE_BIN"
	envVersion = "HOOK_E2E_CLAUDE_VERSION"
	envCache   = "HOOK_E2E_CACHE"
	envNetNS   = "HOOK_E2E_NETNS"
	envTimeout = "HOOK_E2E_TIMEOUT"
	envJobs    = "HOOK_E2E_JOBS"
	envWork    = "HOOK_E2E_WORK"
)

// errUnavailable marks a reason to skip: the client cannot be run here.
var errUnavailable = errors.New("claudetest: Claude Code cannot be run here")

// enabled reports whether the runs were asked for.
func enabled() bool { return os.Getenv(envEnable) == "1" }

// wantVersion returns the Claude Code version to install.
func wantVersion() string {
	if v := os.Getenv(envVersion); v != "" {
		return v
	}
	return Version
}

// installDir returns the folder that Claude Code version is installed in.
func installDir(version string) (string, error) {
	if d := os.Getenv(envCache); d != "" {
		return filepath.Abs(d)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no user cache folder (set %s or %s): %v", errUnavailable, envCache, envBin, err)
	}
	return filepath.Join(c, "gohooks-e2e", "claude-code", version), nil
}

// findClaude returns a working claude executable installed in dir: the npm
// wrapper's bin once its postinstall has run, else the platform package's
// native binary, which works on its own.
func findClaude(ctx context.Context, dir string) (string, bool) {
	cands := []string{filepath.Join(dir, "node_modules", ".bin", "claude")}
	more, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-*", "claude"))
	for _, c := range append(cands, more...) {
		if _, err := claudeVersionOf(ctx, c); err == nil {
			return c, true
		}
	}
	return "", false
}

// The client found or installed by the first caller of [ensureClaude].
var client struct {
	once         sync.Once
	bin, version string
	err          error
}

// ensureClaude returns the claude executable to test with and its version
// line, once per process: $CLAUDE_BIN if set, else the one installed in
// [installDir], which it installs with npm first if missing (npm's output
// goes to log). An error wrapping errUnavailable means the client cannot
// be run here at all.
func ensureClaude(log io.Writer) (bin, version string, err error) {
	client.once.Do(func() {
		client.bin, client.version, client.err = findOrInstall(context.Background(), log)
	})
	return client.bin, client.version, client.err
}

// findOrInstall does the work of [ensureClaude].
//
// The version is installed explicitly with --engine-strict=false: since
// about 2.1.198 the npm wrapper declares engines.node >= 22, and on an
// older node a plain install silently picks an old release. The CLI is a
// native binary and does not need node itself. npminstall.Install puts it
// in a fresh folder renamed into place, so that two test processes installing
// at once cannot leave a half-installed folder.
func findOrInstall(ctx context.Context, log io.Writer) (string, string, error) {
	if bin := os.Getenv(envBin); bin != "" {
		v, err := claudeVersionOf(ctx, bin)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s=%s: %v", errUnavailable, envBin, bin, err)
		}
		return bin, v, nil
	}
	v := wantVersion()
	dir, err := installDir(v)
	if err != nil {
		return "", "", err
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	bin, err := npminstall.Install(ictx, dir, "@anthropic-ai/claude-code@"+v, log,
		func(dir string) (string, bool) { return findClaude(ctx, dir) }, "--engine-strict=false")
	switch {
	case errors.Is(err, npminstall.ErrNoNpm):
		return "", "", fmt.Errorf("%w: Claude Code %s is not installed in %s and npm is not there to install it (install node and npm, or set %s to a claude executable)", errUnavailable, v, dir, envBin)
	case errors.Is(err, npminstall.ErrNpm):
		return "", "", fmt.Errorf("%w: %v", errUnavailable, err)
	case err != nil:
		return "", "", fmt.Errorf("claudetest: %w", err)
	}
	ver, err := claudeVersionOf(ctx, bin)
	return bin, ver, err
}

// claudeVersionOf runs bin --version.
func claudeVersionOf(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Stdout = &out
	cmd.Env = append(os.Environ(), "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}
