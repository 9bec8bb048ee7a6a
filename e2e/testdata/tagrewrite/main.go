// Command tagrewrite is a PreToolUse hook for the end-to-end tests that
// rewrites Bash calls: for each TAG argument, a rewriter appends
// "; echo TAG >> tags.txt" to the command, with hook.Edit, changing
// nothing else. With one TAG it is one rewriting hook; with several, one
// hook that runs the rewriters in a hook.Chain, each seeing the previous
// one's command:
//
//	tagrewrite A         # one rewriter
//	tagrewrite A B C     # three rewriters, chained
//	tagrewrite -deny     # denies every call (any tool)
//
// tags.txt in the project then says which rewrites reached the tool.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/gohooks/hook"
)

func main() {
	deny := flag.Bool("deny", false, "deny every call")
	flag.Parse()
	if *deny {
		hook.Run(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "tagrewrite -deny"}, nil
		}))
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: tagrewrite [-deny] TAG...")
		os.Exit(1)
	}
	var hs []hook.Handler
	for _, tag := range flag.Args() {
		hs = append(hs, rewriter(tag))
	}
	if len(hs) == 1 {
		hook.Run(hs[0])
	}
	hook.Run(hook.Chain(hs...))
}

// rewriter appends the tag's echo to a Bash command.
func rewriter(tag string) hook.Handler {
	return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != hook.ToolBash {
			return nil, nil
		}
		upd, err := hook.Edit(e.ToolInput, func(b *hook.BashInput) error {
			b.Command += "; echo " + tag + " >> tags.txt"
			return nil
		})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{UpdatedInput: upd}, nil
	})
}
