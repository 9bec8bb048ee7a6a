// Command floor is the cheapest possible hook, the floor that bench/run.sh
// compares real hooks with: it drains stdin and prints a fixed answer,
// without reading any JSON.
package main

import (
	"io"
	"os"
)

const answer = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n"

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString(answer)
}
