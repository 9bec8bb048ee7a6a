// Command interruptlog is an Interrupt hook for the end-to-end tests: it
// appends "LABEL SOURCE REASON VIA" and a newline to the file LOG, so that
// a test sees that Claude Code ran it and with what, and answers nothing
// (Claude Code ignores an Interrupt hook's answer). It routes through a
// Mux by source, as a hook that treats a person's stop apart would.
//
//	interruptlog LOG LABEL
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
		fmt.Fprintln(os.Stderr, "usage: interruptlog LOG LABEL")
		os.Exit(1)
	}
	log, label := os.Args[1], os.Args[2]
	write := func(tag string) hook.Handler {
		return hook.InterruptFunc(func(ctx context.Context, e *hook.Interrupt) (*hook.InterruptOutput, error) {
			f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			_, werr := fmt.Fprintf(f, "%s%s %s %s %s\n", label, tag, e.Source, e.Reason, e.Via)
			return nil, errors.Join(werr, f.Close())
		})
	}
	m := hook.NewMux()
	m.Handle("Interrupt user", write(""))
	m.Handle("Interrupt session|system", write("/not-a-person"))
	hook.Run(m)
}
