// Command rewrite is a PreToolUse hook for the Bash tool that shows a
// typed edit: it bounds each foreground command at ten minutes by
// prefixing it with coreutils' `timeout 600`, so that a hung process is
// killed even where the tool's own limit is raised. It changes only the
// command: description, timeout, run_in_background and every other member
// of the tool input, including ones this program does not know, reach
// Claude Code byte for byte, because the update is built with hook.Edit
// from the incoming tool_input.
//
// It rewrites only what `timeout` can wrap without changing what the
// command means: one simple command or one pipeline (timeout bounds its
// first command) whose program is found on $PATH, after any VAR=value
// assignments. It leaves alone commands already run under timeout (so it
// never prefixes twice), lists (a; b, a && b), grouping and control flow,
// shell builtins such as cd and export, aliases and functions, background
// commands, and command lines it cannot parse. It makes no permission
// decision: the rewritten command goes through Claude Code's normal
// permission checks. Under Codex, which applies a rewrite only beside
// permissionDecision "allow" and approves nothing by it, the rewrite
// carries that allow. Register it for Bash:
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash",
//	  "hooks": [{"type": "command", "command": "/path/to/rewrite"}]}]}}
//
// Try it:
//
//	go run ./examples/rewrite < examples/rewrite/testdata/go-test.json
package main

import (
	"context"
	"os/exec"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/timeout"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the rewrite hook; it looks programs up on $PATH.
func Handler() hook.Handler {
	return newHandler(exec.LookPath)
}

func newHandler(lookPath func(string) (string, error)) hook.Handler {
	return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return timeout.Rewrite(e, lookPath)
	})
}
