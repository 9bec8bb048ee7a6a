// Command racehook is a hook whose handler keeps writing into the raw
// value it answered with, from a goroutine, while the library checks and
// writes the answer: vouch_race_test.go runs it as a process built
// without the race detector (the race is the point) and checks that
// stdout is never anything but the value the handler answered before it
// began to write, or nothing with a failure's exit code.
//
// RACEHOOK_MODE picks the answer: "merge" (a Merge result, vouched and
// spliced when 4 KiB or more), "raw" (a copy of it, checked in full),
// "permission" (a PermissionRequest allow with a Merge result),
// "posttooluse" (an updatedToolOutput made with Merge), "input" (a Merge
// result answered while a goroutine writes into the tool_input it was
// built from, which the handler was lent to read) and "calm" (a Merge
// result nobody writes into). "chain", "chainfirst" and "chaininput" run
// a Chain of two Merges (adding "checked", then "audited"): the second
// handler writes into its result, the first into its result (which the
// chain copies for the second), or the second into the tool_input it was
// lent, the first's rewrite.
package main

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// scribble keeps breaking and mending v: it puts a quote, then the byte
// that was there, at positions that move through v, until the process
// ends. started is closed once it writes.
func scribble(v []byte, started chan struct{}) {
	var n atomic.Uint64 // a call the compiler cannot drop between the writes
	close(started)
	for i := 0; ; i = (i + 7919) % len(v) {
		old := v[i]
		v[i] = '"'
		n.Add(1)
		v[i] = old
		n.Add(1)
	}
}

// racing answers with v and leaves a goroutine writing into it.
func racing(v jsontext.Value) jsontext.Value {
	started := make(chan struct{})
	go scribble(v, started)
	<-started
	return v
}

func main() {
	mode := os.Getenv("RACEHOOK_MODE")
	srv := hook.Server{FailClosed: true}
	switch mode {
	case "merge", "raw", "calm", "input":
		srv.Handler = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]bool{"checked": true})
			if err != nil {
				return nil, err
			}
			switch mode {
			case "raw":
				upd = racing(append(jsontext.Value(nil), upd...))
			case "merge":
				upd = racing(upd)
			case "input":
				racing(e.ToolInput)
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
		})
	case "chain", "chainfirst", "chaininput":
		step := func(member string, last bool) hook.Handler {
			return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				upd, err := e.Merge(map[string]bool{member: true})
				if err != nil {
					return nil, err
				}
				switch {
				case mode == "chain" && last, mode == "chainfirst" && !last:
					upd = racing(upd)
				case mode == "chaininput" && last:
					racing(e.ToolInput)
				}
				return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
			})
		}
		srv.Handler = hook.Chain(step("checked", false), step("audited", true))
	case "permission":
		srv.Handler = hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
			upd, err := e.Merge(map[string]bool{"checked": true})
			if err != nil {
				return nil, err
			}
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: racing(upd)}, nil
		})
	case "posttooluse":
		srv.Handler = hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			out, err := hook.Merge(e.ToolResponse, map[string]string{"stderr": "checked"})
			if err != nil {
				return nil, err
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: racing(out)}, nil
		})
	}
	srv.Run()
}
