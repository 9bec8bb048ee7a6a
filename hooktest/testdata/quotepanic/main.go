// Command quotepanic is a correct feedback hook: it blocks the call with
// exit code 2 and a reason that quotes a Go panic's report — what a hook
// quoting a failing test's output does. Its stderr ends like the Go
// runtime's crash report, after a line of its own.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

func main() {
	_, _ = io.Copy(io.Discard, os.Stdin)
	fmt.Fprintln(os.Stderr, "the room check failed, fix it first:")
	fmt.Fprintf(os.Stderr, "panic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\n%s", trimmed(debug.Stack()))
	os.Exit(2)
}

// trimmed drops the first line of a debug.Stack ("goroutine 1 [running]:"),
// which the reason writes itself.
func trimmed(stack []byte) []byte {
	for i, b := range stack {
		if b == '\n' {
			return stack[i+1:]
		}
	}
	return stack
}
