package claudetest

import (
	"context"
	"io"
	"os"
	"sync"

	"github.com/gohooks/hook/internal/clientrun"
)

// Version is the Claude Code release claudetest installs and is verified
// against. $HOOK_E2E_CLAUDE_VERSION installs another, or "latest", the
// newest release of this platform's package; other versions may word
// their messages differently.
const Version = clientrun.ClaudeVersion

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
var errUnavailable = clientrun.ErrUnavailable

// fromEnv returns the client the environment asks for.
func fromEnv() clientrun.Claude {
	return clientrun.Claude{
		Bin: os.Getenv(envBin), Version: harness.WantVersion(), Cache: os.Getenv(envCache),
		BinHint: envBin, VersionHint: envVersion + "=latest", CacheHint: envCache,
	}
}

// The client found or installed by the first caller of [ensureClaude].
var client struct {
	once         sync.Once
	bin, version string
	err          error
}

// ensureClaude returns the claude executable to test with and its version
// line, once per process: $CLAUDE_BIN if set, else the version
// $HOOK_E2E_CLAUDE_VERSION names (default [Version]) under
// $HOOK_E2E_CACHE or the user cache folder, which it installs with npm
// first if missing (npm's output goes to log). An error wrapping
// errUnavailable means the client cannot be run here at all.
func ensureClaude(log io.Writer) (bin, version string, err error) {
	client.once.Do(func() {
		client.bin, client.version, client.err = fromEnv().Find(context.Background(), log)
	})
	return client.bin, client.version, client.err
}
