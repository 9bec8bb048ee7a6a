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
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gohooks/hook/internal/npminstall"
)

// Version is the Claude Code release claudetest installs and is verified
// against. $HOOK_E2E_CLAUDE_VERSION installs another, or "latest", the
// newest release of this platform's package; other versions may word
// their messages differently.
const Version = "2.1.336"

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

// installDir returns the folder that Claude Code version is installed in:
// a folder of its own under $HOOK_E2E_CACHE, or under the user cache
// folder. The cache folder may exist and hold other things.
func installDir(version string) (string, error) {
	if d := os.Getenv(envCache); d != "" {
		d, err := filepath.Abs(d)
		return filepath.Join(d, version), err
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no user cache folder (set %s or %s): %v", errUnavailable, envCache, envBin, err)
	}
	return filepath.Join(c, "gohooks-e2e", "claude-code", version), nil
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
// Claude Code ships as one npm package per platform holding its native
// binary (@anthropic-ai/claude-code-linux-x64, …); since 2.1.333 there
// is no other (the wrapper package @anthropic-ai/claude-code stops at
// 2.1.332). findOrInstall installs this platform's package, which needs
// neither node nor a postinstall script to run. npminstall.Install puts it
// in a fresh folder renamed into place, under a lock, so that test
// processes starting at once (go test ./e2e/ ./claudetest/) download it
// once and none sees a half-installed folder.
func findOrInstall(ctx context.Context, log io.Writer) (string, string, error) {
	if bin := os.Getenv(envBin); bin != "" {
		v, err := claudeVersionOf(ctx, bin)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s=%s: %v", errUnavailable, envBin, bin, err)
		}
		return bin, v, nil
	}
	pkg, err := nativePackage(runtime.GOOS, runtime.GOARCH, isMusl())
	if err != nil {
		return "", "", fmt.Errorf("%w: %v (set %s to a claude executable)", errUnavailable, err, envBin)
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	v, err := resolveVersion(ictx, pkg, wantVersion())
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", errUnavailable, err)
	}
	dir, err := installDir(v)
	if err != nil {
		return "", "", err
	}
	bin, err := npminstall.Install(ictx, dir, pkg+"@"+v, log,
		func(dir string) (string, bool) { return findClaude(ctx, dir, v) })
	switch {
	case errors.Is(err, npminstall.ErrNoNpm):
		return "", "", fmt.Errorf("%w: Claude Code %s is not installed in %s and npm is not there to install it (install node and npm, or set %s to a claude executable)", errUnavailable, v, dir, envBin)
	case errors.Is(err, npminstall.ErrNpm):
		return "", "", fmt.Errorf("%w: %v (does %s have version %s? %s=latest installs its newest)", errUnavailable, err, pkg, v, envVersion)
	case err != nil:
		return "", "", fmt.Errorf("claudetest: %w", err)
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
