// Command faulthook is a PreToolUse hook for the end-to-end tests that
// misbehaves on purpose, chosen by a word in the Bash command:
//
//   - BLOCK: it returns hook.Block (exit code 2);
//   - PANIC: its handler panics;
//   - anything else: no answer.
//
// With -closed it runs wrapped in hook.FailClosed, so the panic blocks
// the call; without it, the panic is a non-blocking error and the call
// goes on.
package main

import (
	"context"
	"flag"
	"strings"

	"github.com/gohooks/hook"
)

func main() {
	closed := flag.Bool("closed", false, "fail closed")
	flag.Parse()
	var h hook.Handler = hook.PreToolUseFunc(fault)
	if *closed {
		h = hook.FailClosed(h)
	}
	hook.Run(h)
}

func fault(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.Contains(in.Command, "BLOCK"):
		return nil, hook.Block("faulthook blocked this command on purpose")
	case strings.Contains(in.Command, "PANIC"):
		panic("faulthook panics on purpose")
	}
	return nil, nil
}
