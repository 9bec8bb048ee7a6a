// Command bashguard is a PreToolUse hook for the Bash tool that refuses the
// classic destructive accidents, with a reason the model can act on:
//
//   - a recursive rm of the root folder, a top-level system folder, the
//     home folder, the project root ($CLAUDE_PROJECT_DIR) or the session's
//     working folder, of a folder that holds one of them, or of everything
//     in one of them (rm -rf *, rm -rf ~/*);
//   - a force push (--force, -f, --force-with-lease, +refspec) to main or
//     master, deleting either on the remote, and git push --mirror.
//
// It reads the command line as a shell would: lists and pipelines,
// quoting, wrappers (sudo, env, nice, timeout, …), scripts handed to a
// shell (sh -c, bash -c, eval, here-documents, echo … | sh), the
// variables the line sets before it uses them, ~ and ~user, command
// substitutions and backticks, xargs and find -exec, and cd. A target it
// cannot work out (the output of a command, names xargs reads from a
// file, a variable set by read, a script piped from curl) is refused, not
// guessed. README.md lists exactly what it reads and what it does not. It
// is a guard against accidents, not a sandbox.
//
// It fails closed: if it breaks (an input it cannot decode, a panic), the
// call is blocked (exit code 2) rather than let through. Register it for
// Bash with "onFailure": "block", so that Claude Code blocks too when the
// guard cannot start, is killed at its timeout or dies before it answers
// (docs/reliability.md):
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash",
//	  "hooks": [{"type": "command", "command": "/path/to/bashguard", "onFailure": "block"}]}]}}
//
// Try it:
//
//	go run ./examples/bashguard < examples/bashguard/testdata/rm-home.json
package main

import (
	"context"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/bashrules"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the bashguard hook. It takes the home folder from $HOME
// and the project root from $CLAUDE_PROJECT_DIR, which Claude Code sets
// for hooks, at each event.
func Handler() hook.Handler {
	return hook.FailClosed(hook.PreToolUseFunc(guard))
}

func guard(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	return bashrules.Deny(ctx, e, nil)
}
