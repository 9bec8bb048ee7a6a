package codextest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/npminstall"
)

// Version is the Codex CLI release codextest installs and is verified
// against (npm @openai/codex). $HOOK_E2E_CODEX_VERSION installs another;
// other versions may send hooks other members and word their messages
// differently.
const Version = agent.CodexVersion

// The environment variables codextest reads. They are documented in the
// package doc; none is needed beyond HOOK_E2E=1. The ones without CODEX in
// their name are claudetest's too.
const (
	envEnable   = "HOOK_E2E"
	envBin      = "HOOK_E2E_CODEX_BIN"
	envVersion  = "HOOK_E2E_CODEX_VERSION"
	envCache    = "HOOK_E2E_CODEX_CACHE"
	envNetNS    = "HOOK_E2E_NETNS"
	envTimeout  = "HOOK_E2E_TIMEOUT"
	envJobs     = "HOOK_E2E_JOBS"
	envWork     = "HOOK_E2E_WORK"
	envInNetNS  = "HOOK_E2E_IN_NETNS"
	envHelper   = "CODEXTEST_HELPER"
	codexPrefix = "codex-cli "
)

// errUnavailable marks a reason to skip: the client cannot be run here.
var errUnavailable = errors.New("codextest: Codex cannot be run here")

// enabled reports whether the runs were asked for.
func enabled() bool { return os.Getenv(envEnable) == "1" }

// wantVersion returns the Codex version to install.
func wantVersion() string {
	if v := os.Getenv(envVersion); v != "" {
		return v
	}
	return Version
}

// installDir returns the folder that Codex version is installed in.
func installDir(version string) (string, error) {
	if d := os.Getenv(envCache); d != "" {
		return filepath.Abs(d)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no user cache folder (set %s or %s): %v", errUnavailable, envCache, envBin, err)
	}
	return filepath.Join(c, "gohooks-e2e", "codex", version), nil
}

// findCodex returns a codex of version installed in dir: the platform
// package's native binary, which runs without node, else npm's launcher.
func findCodex(ctx context.Context, dir, version string) (string, bool) {
	exe := "codex"
	if runtime.GOOS == "windows" {
		exe = "codex.exe"
	}
	cands, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@openai", "codex-*", "vendor", "*", "bin", exe))
	launcher := filepath.Join(dir, "node_modules", ".bin", "codex")
	if runtime.GOOS == "windows" {
		launcher += ".cmd"
	}
	for _, c := range append(cands, launcher) {
		if v, err := codexVersionOf(ctx, c); err == nil && v == codexPrefix+version {
			return c, true
		}
	}
	return "", false
}

// The client found or installed by the first caller of [ensureCodex].
var client struct {
	once         sync.Once
	bin, version string
	err          error
}

// Client returns the Codex executable that [Run] uses and its version
// line ("codex-cli 0.171.0"), outside a test: $HOOK_E2E_CODEX_BIN when
// set, else the version $HOOK_E2E_CODEX_VERSION names (default [Version])
// from the user cache folder, which it installs there with npm first when
// missing (npm's output goes to log). It is what [Need] finds, once per
// process, and it sets $HOOK_E2E_CODEX_BIN to it, so that the test binary
// restarted in a network namespace finds it without npm. It does not
// need HOOK_E2E=1. A test binary that uses claudetest too calls it from
// TestMain before claudetest.Main, which moves the tests where npm cannot
// reach its registry (see [Main]).
func Client(log io.Writer) (bin, version string, err error) { return ensureCodex(log) }

// ensureCodex does the work of [Client], once per process. An error
// wrapping errUnavailable means the client cannot be run here at all.
func ensureCodex(log io.Writer) (bin, version string, err error) {
	client.once.Do(func() {
		client.bin, client.version, client.err = findOrInstall(context.Background(), log)
		if client.err == nil {
			// A test binary restarted in a network namespace (by Main,
			// or by claudetest.Main) must not install again.
			os.Setenv(envBin, client.bin)
		}
	})
	return client.bin, client.version, client.err
}

// findOrInstall finds or installs Codex (see [Client]).
// npminstall.Install puts it in a fresh folder renamed into place, so
// that two test processes installing at once cannot leave a
// half-installed folder.
func findOrInstall(ctx context.Context, log io.Writer) (string, string, error) {
	if bin := os.Getenv(envBin); bin != "" {
		v, err := codexVersionOf(ctx, bin)
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
	ictx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	bin, err := npminstall.Install(ictx, dir, "@openai/codex@"+v, log,
		func(dir string) (string, bool) { return findCodex(ctx, dir, v) })
	switch {
	case errors.Is(err, npminstall.ErrNoNpm):
		return "", "", fmt.Errorf("%w: Codex %s is not installed in %s and npm is not there to install it (install node and npm, or set %s to a codex executable)", errUnavailable, v, dir, envBin)
	case errors.Is(err, npminstall.ErrNpm):
		return "", "", fmt.Errorf("%w: %v", errUnavailable, err)
	case err != nil:
		return "", "", fmt.Errorf("codextest: %w", err)
	}
	ver, err := codexVersionOf(ctx, bin)
	return bin, ver, err
}

// codexVersionOf runs bin --version and returns its line.
func codexVersionOf(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(out.String()), nil
}
