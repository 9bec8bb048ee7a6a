// Command guard is the hook of codextest's own tests, built with the
// library as a user's hook is:
//
//	guard deny              # PreToolUse: denies a shell command that starts with "rm "
//	guard tag NAME VALUE    # PreToolUse: Allow, with the tool input's member NAME set to
//	                        # VALUE by e.Merge, every other member kept as Codex sent it
//	guard seen              # PostToolUse: adds context naming what the command printed
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gohooks/hook"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: guard deny | tag NAME VALUE | seen")
		os.Exit(1)
	}
	switch mode := os.Args[1]; mode {
	case "deny":
		hook.Run(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil || !strings.HasPrefix(in.Command, "rm ") {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "guard: use git rm, so that it can be undone"}, nil
		}))
	case "tag":
		name, value := os.Args[2], os.Args[3]
		hook.Run(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]string{name: value})
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
		}))
	case "seen":
		hook.Run(hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{AdditionalContext: "guard saw: " + strings.TrimSpace(string(e.ToolResponse))}, nil
		}))
	default:
		fmt.Fprintf(os.Stderr, "guard: unknown mode %q\n", mode)
		os.Exit(1)
	}
}
