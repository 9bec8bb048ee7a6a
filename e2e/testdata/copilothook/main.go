// Command copilothook is a PreToolUse hook for the GitHub Copilot CLI
// end-to-end tests, built with the library's current API (the same calls
// a Claude Code hook makes). It appends each payload it receives, as one
// line, to the file LOG, then answers by MODE:
//
//	copilothook LOG deny          # denies the call, reason "copilothook: no <command>"
//	copilothook LOG merge CMD     # Allow with UpdatedInput built with hook.Merge: command set to CMD
//	copilothook LOG failclosed    # a handler in hook.FailClosed that fails with "copilothook: policy unreadable"
//	copilothook LOG print JSON    # writes JSON as the answer, bypassing the library: a probe
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
		fmt.Fprintln(os.Stderr, "usage: copilothook LOG deny|merge CMD|failclosed|print JSON")
		os.Exit(1)
	}
	log, mode := os.Args[1], os.Args[2]
	arg := ""
	if len(os.Args) > 3 {
		arg = os.Args[3]
	}
	if mode == "print" {
		raw, err := io.ReadAll(os.Stdin)
		if err == nil {
			err = appendLine(log, bytes.TrimSpace(raw))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "copilothook:", err)
			os.Exit(1)
		}
		os.Stdout.WriteString(arg)
		return
	}
	var h hook.Handler = hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if err := appendLine(log, e.Raw()); err != nil {
			return nil, err
		}
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		switch mode {
		case "deny":
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "copilothook: no " + in.Command}, nil
		case "merge":
			upd, err := e.Merge(map[string]string{"command": arg})
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
		case "failclosed":
			return nil, errors.New("copilothook: policy unreadable")
		}
		return nil, fmt.Errorf("copilothook: unknown mode %q", mode)
	})
	if mode == "failclosed" {
		h = hook.FailClosed(h)
	}
	hook.Run(h)
}

// appendLine appends b and a newline to the file name.
func appendLine(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(append([]byte(nil), b...), '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
