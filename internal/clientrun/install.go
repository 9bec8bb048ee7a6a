package clientrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/gohooks/hook/internal/npminstall"
)

// ClaudeVersion is the Claude Code release the project is verified
// against, and the one [Claude.Find] installs by default.
const ClaudeVersion = "2.1.336"

// ErrUnavailable marks why Claude Code cannot be run here at all (a test
// skips on it): no package for this platform, no npm to install one, or an
// executable that does not run.
var ErrUnavailable = errors.New("Claude Code cannot be run here")

// Claude says which Claude Code to run: Bin, or the release Version
// installed under Cache.
type Claude struct {
	// Bin is the claude executable to run as it is; empty installs one.
	Bin string
	// Version is the release to install: exact (2.1.336), or a tag or
	// range npm resolves today ("latest"); empty is ClaudeVersion.
	Version string
	// Cache is the folder each version is installed in a folder of its
	// own under; empty is gohooks-e2e/claude-code under the user cache
	// folder. It may exist and hold other things.
	Cache string
	// BinHint, VersionHint and CacheHint name, in messages, how the
	// caller's user sets Bin, Version and Cache ($CLAUDE_BIN, -claude, …).
	BinHint, VersionHint, CacheHint string
}

// installDir returns the folder that Claude Code version is installed in.
func (c Claude) installDir(version string) (string, error) {
	if d := c.Cache; d != "" {
		d, err := filepath.Abs(d)
		return filepath.Join(d, version), err
	}
	uc, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no user cache folder (set %s or %s): %v", ErrUnavailable, c.CacheHint, c.BinHint, err)
	}
	return filepath.Join(uc, "gohooks-e2e", "claude-code", version), nil
}

// findClaude returns a claude executable installed in dir that works and
// is version: the native package's binary, or the bin of the npm wrapper
// package that releases up to 2.1.332 had (an install made by an older
// claudetest). A folder holding another version has none.
func findClaude(ctx context.Context, dir, version string) (string, bool) {
	exe := "claude"
	if runtime.GOOS == "windows" {
		exe = "claude.exe"
	}
	cands, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-*", exe))
	cands = append(cands, filepath.Join(dir, "node_modules", ".bin", "claude"))
	for _, c := range cands {
		if v, err := claudeVersionOf(ctx, c); err == nil && strings.HasPrefix(v, version+" ") {
			return c, true
		}
	}
	return "", false
}

// Find returns the claude executable to run and its version line: Bin,
// or the one installed in the version's folder under Cache, which it
// installs with npm first if missing (npm's output goes to log).
//
// Claude Code ships as one npm package per platform holding its native
// binary (@anthropic-ai/claude-code-linux-x64, …); since 2.1.333 there
// is no other (the wrapper package @anthropic-ai/claude-code stops at
// 2.1.332). Find installs this platform's package, which needs neither
// node nor a postinstall script to run. npminstall.Install puts it in a
// fresh folder renamed into place, under a lock, so that processes
// starting at once (go test ./e2e/ ./claudetest/) download it once and
// none sees a half-installed folder. An error wrapping ErrUnavailable
// means the client cannot be run here at all.
func (c Claude) Find(ctx context.Context, log io.Writer) (string, string, error) {
	if bin := c.Bin; bin != "" {
		v, err := claudeVersionOf(ctx, bin)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s=%s: %v", ErrUnavailable, c.BinHint, bin, err)
		}
		return bin, v, nil
	}
	want := c.Version
	if want == "" {
		want = ClaudeVersion
	}
	pkg, err := nativePackage(runtime.GOOS, runtime.GOARCH, isMusl())
	if err != nil {
		return "", "", fmt.Errorf("%w: %v (set %s to a claude executable)", ErrUnavailable, err, c.BinHint)
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	v, err := resolveVersion(ictx, pkg, want)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	dir, err := c.installDir(v)
	if err != nil {
		return "", "", err
	}
	bin, err := npminstall.Install(ictx, dir, pkg+"@"+v, log,
		func(dir string) (string, bool) { return findClaude(ctx, dir, v) })
	switch {
	case errors.Is(err, npminstall.ErrNoNpm):
		return "", "", fmt.Errorf("%w: Claude Code %s is not installed in %s and npm is not there to install it (install node and npm, or set %s to a claude executable)", ErrUnavailable, v, dir, c.BinHint)
	case errors.Is(err, npminstall.ErrNpm):
		return "", "", fmt.Errorf("%w: %v (does %s have version %s? %s installs its newest)", ErrUnavailable, err, pkg, v, c.VersionHint)
	case err != nil:
		return "", "", fmt.Errorf("installing Claude Code: %w", err)
	}
	ver, err := claudeVersionOf(ctx, bin)
	return bin, ver, err
}

// exactVersion matches a version npm installs as is, not a tag or range.
var exactVersion = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// resolveVersion returns version when it is exact, else the version that
// npm view says the tag or range names for pkg today (the newest one a
// range holds).
func resolveVersion(ctx context.Context, pkg, version string) (string, error) {
	if exactVersion.MatchString(version) {
		return version, nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm is needed to find which version %s@%s is: %v", pkg, version, err)
	}
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "npm", "view", pkg+"@"+version, "version", "--no-update-notifier")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm view %s@%s version: %v: %s", pkg, version, err, strings.TrimSpace(errOut.String()))
	}
	fields := strings.Fields(out.String())
	if len(fields) == 0 {
		return "", fmt.Errorf("%s has no version %s", pkg, version)
	}
	v := strings.Trim(fields[len(fields)-1], "'\"")
	if !exactVersion.MatchString(v) {
		return "", fmt.Errorf("npm view %s@%s version printed %q, not a version", pkg, version, out.String())
	}
	return v, nil
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
