// Command ctlmark is a PreToolUse hook for the hookctl end-to-end tests:
// it appends "LABEL TOOL" and a newline to the file LOG, so that a test
// sees which registration of it Claude Code ran, and answers nothing.
//
//	ctlmark LOG LABEL
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gohooks/hook"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: ctlmark LOG LABEL")
		os.Exit(1)
	}
	log, label := os.Args[1], os.Args[2]
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		_, werr := fmt.Fprintf(f, "%s %s\n", label, e.ToolName)
		return nil, errors.Join(werr, f.Close())
	}))
}
