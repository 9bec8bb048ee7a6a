// Command policy is one hook binary that holds several policies and
// combines them the way Claude Code combines several hooks, but in a
// fixed order and without the race between separate hook processes:
//
//   - a guard with bashguard's rules, which denies the classic destructive
//     accidents (rm -rf of the home or project folder, a force push to
//     main, …) and fails closed;
//   - a rewriter, which bounds foreground commands at ten minutes with
//     coreutils' `timeout 600` (the rewrite example's rule);
//   - a context adder, which tells Claude when the command it sees — the
//     rewritten one — runs under that limit;
//   - a Stop guard, which keeps Claude working while .claude/unfinished
//     exists in the project (the stopguard example's rule).
//
// The three PreToolUse policies are registered for Bash in a hook.Mux,
// in that order: a denial stops the others, the context adder sees the
// rewriter's command, and the answer written is the combination — the
// rewrite and the context together, every member of the tool input the
// policies did not change kept byte for byte. Register the binary once
// per event, with matcher "*"; the Mux routes by tool. "onFailure":
// "block" makes Claude Code block a tool call when the hook cannot start
// or is killed (Claude Code ignores it on Stop):
//
//	{"hooks": {
//	  "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/path/to/policy", "onFailure": "block"}]}],
//	  "Stop":       [{"hooks": [{"type": "command", "command": "/path/to/policy"}]}]}}
//
// Try it:
//
//	go run ./examples/policy < examples/policy/testdata/go-test.json
//	go run ./examples/policy < examples/policy/testdata/rm-home.json
package main

import (
	"context"
	"os/exec"
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/bashrules"
	"github.com/gohooks/hook/examples/internal/stoprules"
	"github.com/gohooks/hook/examples/internal/timeout"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the policy hook: it looks programs up on $PATH and
// asks git for branches.
func Handler() hook.Handler {
	return newHandler(exec.LookPath, nil)
}

// newHandler builds the hook with a $PATH lookup and a branch lookup (nil:
// ask git).
func newHandler(lookPath func(string) (string, error), branch func(ctx context.Context, dir string) (string, error)) hook.Handler {
	m := hook.NewMux()
	m.Handle("PreToolUse Bash", hook.FailClosed(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return bashrules.Deny(ctx, e, branch)
	})))
	m.Handle("PreToolUse Bash", hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return timeout.Rewrite(e, lookPath)
	}))
	m.Handle("PreToolUse Bash", hook.PreToolUseFunc(limitNote))
	m.Handle("Stop", hook.StopFunc(stoprules.Guard))
	return m
}

// LimitNote is the context added for a command that runs under the time
// limit.
const LimitNote = "policy: this command runs under `timeout 600`: it is killed after ten minutes. Start longer jobs with run_in_background."

// limitNote tells Claude about the limit when the command it is given
// carries it; it sees the rewriter's command, not the original.
func limitNote(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(in.Command, timeout.Prefix) {
		return nil, nil
	}
	return &hook.PreToolUseOutput{AdditionalContext: LimitNote}, nil
}
