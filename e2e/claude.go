package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultClaudeVersion is the Claude Code release the end-to-end tests are
// verified against. Other versions may word messages differently.
const DefaultClaudeVersion = "2.1.332"

// The environment variables that configure the end-to-end tests.
const (
	// EnvEnable must be "1" for the end-to-end tests to run.
	EnvEnable = "HOOK_E2E"
	// EnvClaudeBin names an existing claude executable to use instead of
	// installing one.
	EnvClaudeBin = "CLAUDE_BIN"
	// EnvClaudeVersion is the npm version of @anthropic-ai/claude-code to
	// install (default [DefaultClaudeVersion]).
	EnvClaudeVersion = "HOOK_E2E_CLAUDE_VERSION"
	// EnvCache is the folder Claude Code is installed into (default: the
	// user cache folder, then gohooks-e2e/claude-code/<version>).
	EnvCache = "HOOK_E2E_CACHE"
	// EnvNetNS says whether to run in a network namespace that has only
	// loopback: "auto" (default: when `unshare -n` works), "1" (required)
	// or "0" (never).
	EnvNetNS = "HOOK_E2E_NETNS"
	// EnvTimeout is the limit of one claude run in seconds (default 120).
	EnvTimeout = "HOOK_E2E_TIMEOUT"
	// EnvJobs is how many claude runs may go at once (default 3).
	EnvJobs = "HOOK_E2E_JOBS"
	// EnvWork is a folder to keep the runs in for inspection (default:
	// temporary folders, removed after the tests).
	EnvWork = "HOOK_E2E_WORK"
)

// Enabled reports whether the end-to-end tests were asked for.
func Enabled() bool { return os.Getenv(EnvEnable) == "1" }

// ClaudeVersion returns the Claude Code version to install.
func ClaudeVersion() string {
	if v := os.Getenv(EnvClaudeVersion); v != "" {
		return v
	}
	return DefaultClaudeVersion
}

// InstallDir returns the folder that Claude Code version is installed in.
func InstallDir(version string) (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no user cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(c, "gohooks-e2e", "claude-code", version), nil
}

// FindClaude returns a working claude executable installed in dir: the npm
// wrapper's bin once its postinstall has run, else the platform package's
// native binary, which works on its own.
func FindClaude(ctx context.Context, dir string) (string, bool) {
	cands := []string{filepath.Join(dir, "node_modules", ".bin", "claude")}
	more, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-*", "claude"))
	for _, c := range append(cands, more...) {
		if _, err := claudeVersionOf(ctx, c); err == nil {
			return c, true
		}
	}
	return "", false
}

// EnsureClaude returns the claude executable to test with and its version
// line: $CLAUDE_BIN if set, else the one installed in [InstallDir], which
// it installs with npm first if missing. npm's output goes to log.
//
// The version is installed explicitly with --engine-strict=false: since
// about 2.1.198 the npm wrapper declares engines.node >= 22, and on an
// older node a plain install silently picks an old release. The CLI is a
// native binary and does not need node itself.
func EnsureClaude(ctx context.Context, log io.Writer) (bin, version string, err error) {
	if bin = os.Getenv(EnvClaudeBin); bin != "" {
		version, err = claudeVersionOf(ctx, bin)
		return bin, version, err
	}
	v := ClaudeVersion()
	dir, err := InstallDir(v)
	if err != nil {
		return "", "", err
	}
	if bin, ok := FindClaude(ctx, dir); ok {
		version, err = claudeVersionOf(ctx, bin)
		return bin, version, err
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "", fmt.Errorf("e2e: npm is needed to install Claude Code (or set %s): %w", EnvClaudeBin, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	fmt.Fprintf(log, "e2e: installing @anthropic-ai/claude-code@%s with npm into %s\n", v, dir)
	ictx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ictx, "npm", "install", "--prefix", dir, "--no-audit", "--no-fund",
		"--engine-strict=false", "@anthropic-ai/claude-code@"+v)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", "", fmt.Errorf("e2e: npm install @anthropic-ai/claude-code@%s: %w", v, err)
	}
	bin, ok := FindClaude(ctx, dir)
	if !ok {
		return "", "", fmt.Errorf("e2e: no working claude binary under %s after npm install", dir)
	}
	version, err = claudeVersionOf(ctx, bin)
	return bin, version, err
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
		return "", fmt.Errorf("e2e: %s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}
