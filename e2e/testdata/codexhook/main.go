// Command codexhook is a PreToolUse hook for the Codex end-to-end tests,
// built with the library's current API (the same calls a Claude Code hook
// makes). It appends each payload it receives, as one line, to the file
// LOG, then answers by MODE:
//
//	codexhook LOG deny          # denies the call, reason "codexhook: no <command>"
//	codexhook LOG block         # hook.Block: exit 2, reason "codexhook blocks <command>" on stderr
//	codexhook LOG allow CMD     # Allow with UpdatedInput: the input, command set to CMD
//	codexhook LOG bare CMD      # UpdatedInput without a decision, as examples/rewrite answers
//	codexhook LOG print JSON    # writes JSON as the answer, bypassing the library: a probe
//	                            # of what Codex does with answers the library must not write
//	codexhook LOG postfail      # a PostToolUse handler in hook.FailClosed that fails with
//	                            # "codexhook: policy unreadable"
//	codexhook LOG postfailopen  # the same failure without FailClosed
//
// The rewrites are built with hook.Merge from the incoming tool_input, so
// every member Codex sent is kept.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gohooks/hook"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: codexhook LOG deny|allow CMD|bare CMD")
		os.Exit(1)
	}
	log, mode := os.Args[1], os.Args[2]
	cmd := ""
	if len(os.Args) > 3 {
		cmd = os.Args[3]
	}
	if mode == "print" {
		raw, err := io.ReadAll(os.Stdin)
		if err == nil {
			err = appendLine(log, bytes.TrimSpace(raw))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "codexhook:", err)
			os.Exit(1)
		}
		os.Stdout.WriteString(cmd)
		return
	}
	if mode == "postfail" || mode == "postfailopen" {
		var h hook.Handler = hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			if err := appendLine(log, e.Raw()); err != nil {
				return nil, err
			}
			return nil, errors.New("codexhook: policy unreadable")
		})
		if mode == "postfail" {
			h = hook.FailClosed(h)
		}
		hook.Run(h)
		return
	}
	hook.Run(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if err := appendLine(log, e.Raw()); err != nil {
			return nil, err
		}
		switch mode {
		case "deny":
			bash, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "codexhook: no " + bash.Command}, nil
		case "block":
			bash, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			return nil, hook.Block("codexhook blocks " + bash.Command)
		case "allow", "bare":
			upd, err := e.Merge(map[string]string{"command": cmd})
			if err != nil {
				return nil, err
			}
			out := &hook.PreToolUseOutput{UpdatedInput: upd}
			if mode == "allow" {
				out.Decision = hook.Allow
			}
			return out, nil
		}
		return nil, fmt.Errorf("codexhook: unknown mode %q", mode)
	}))
}

// appendLine appends raw and a newline to the file name.
func appendLine(name string, raw []byte) error {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(append([]byte(nil), raw...), '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
