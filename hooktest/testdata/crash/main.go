// Command crash is a known-bad hook: it panics, so the Go runtime prints a
// stack trace and exits with code 2, which blocks the tool call.
package main

import (
	"io"
	"os"
)

func main() {
	b, _ := io.ReadAll(os.Stdin)
	var rooms []string
	_ = rooms[len(b)%7] // index out of range
}
