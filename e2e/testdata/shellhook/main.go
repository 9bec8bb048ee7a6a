// Command shellhook is a hook on the shell tool for the Codex and GitHub
// Copilot CLI end-to-end tests, built with the library's current API (the
// same calls a Claude Code hook makes). It appends each payload it
// receives, as one line, to the file LOG, then answers by MODE:
//
//	shellhook LOG deny          # denies the call, reason "shellhook: no <command>"
//	shellhook LOG block         # hook.Block: exit 2, reason "shellhook blocks <command>" on stderr
//	shellhook LOG allow CMD     # Allow with UpdatedInput: the input, command set to CMD
//	shellhook LOG bare CMD      # UpdatedInput without a decision, as examples/rewrite answers
//	shellhook LOG failclosed    # a PreToolUse handler in hook.FailClosed that fails with
//	                            # "shellhook: policy unreadable"
//	shellhook LOG print JSON    # writes JSON as the answer, bypassing the library: a probe
//	                            # of what a client does with answers the library must not write
//	shellhook LOG postfail      # a PostToolUse handler in hook.FailClosed that fails with
//	                            # "shellhook: policy unreadable"
//	shellhook LOG postfailopen  # the same failure without FailClosed
//
// The rewrites are built with hook.Merge from the incoming tool_input, so
// every member the client sent is kept.
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

// errPolicy is the failure of the failclosed, postfail and postfailopen
// modes.
var errPolicy = errors.New("shellhook: policy unreadable")

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: shellhook LOG deny|block|allow CMD|bare CMD|failclosed|print JSON|postfail|postfailopen")
		os.Exit(1)
	}
	log, mode := os.Args[1], os.Args[2]
	arg := ""
	if len(os.Args) > 3 {
		arg = os.Args[3]
	}
	switch mode {
	case "print":
		raw, err := io.ReadAll(os.Stdin)
		if err == nil {
			err = appendLine(log, bytes.TrimSpace(raw))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "shellhook:", err)
			os.Exit(1)
		}
		os.Stdout.WriteString(arg)
	case "postfail", "postfailopen":
		var h hook.Handler = hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			if err := appendLine(log, e.Raw()); err != nil {
				return nil, err
			}
			return nil, errPolicy
		})
		if mode == "postfail" {
			h = hook.FailClosed(h)
		}
		hook.Run(h)
	default:
		var h hook.Handler = hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			if err := appendLine(log, e.Raw()); err != nil {
				return nil, err
			}
			return preToolUse(e, mode, arg)
		})
		if mode == "failclosed" {
			h = hook.FailClosed(h)
		}
		hook.Run(h)
	}
}

// preToolUse answers e by mode, with arg the mode's argument.
func preToolUse(e *hook.PreToolUse, mode, arg string) (*hook.PreToolUseOutput, error) {
	switch mode {
	case "deny", "block":
		bash, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		if mode == "block" {
			return nil, hook.Block("shellhook blocks " + bash.Command)
		}
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "shellhook: no " + bash.Command}, nil
	case "allow", "bare":
		upd, err := e.Merge(map[string]string{"command": arg})
		if err != nil {
			return nil, err
		}
		out := &hook.PreToolUseOutput{UpdatedInput: upd}
		if mode == "allow" {
			out.Decision = hook.Allow
		}
		return out, nil
	case "failclosed":
		return nil, errPolicy
	}
	return nil, fmt.Errorf("shellhook: unknown mode %q", mode)
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
