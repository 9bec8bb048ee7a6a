package codextest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
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
	codexPrefix = clientrun.CodexVersionPrefix
)

// errUnavailable marks a reason to skip: the client cannot be run here.
var errUnavailable = errors.New("codextest: Codex cannot be run here")

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

// findOrInstall finds or installs Codex (see [Client]) with
// clientrun.Codex, which hookctl verify shares.
func findOrInstall(ctx context.Context, log io.Writer) (string, string, error) {
	bin, v, err := clientrun.Codex{Bin: os.Getenv(envBin), Version: harness.WantVersion(), Dir: os.Getenv(envCache),
		BinHint: envBin, DirHint: envCache}.Find(ctx, log)
	if errors.Is(err, clientrun.ErrCodexUnavailable) {
		return "", "", fmt.Errorf("%w: %v", errUnavailable, err)
	}
	if err != nil {
		return "", "", fmt.Errorf("codextest: %w", err)
	}
	return bin, v, nil
}
