package claudetest

import "io"

// Client returns the Claude Code executable that [Run] uses and its
// version line, outside a test: $CLAUDE_BIN when set, else the version
// $HOOK_E2E_CLAUDE_VERSION names (default [Version]) from the user cache
// folder, which it installs there with npm first when missing (npm's
// output goes to log). It is what [Need] finds, once per process, for
// programs that run Claude Code as claudetest does, such as hookctl
// verify; it does not need HOOK_E2E=1.
func Client(log io.Writer) (bin, version string, err error) { return ensureClaude(log) }
