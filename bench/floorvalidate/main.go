// Command floorvalidate is the floor for large inputs that bench/run.sh
// compares real hooks with: it reads one JSON value from stdin, validates
// it once with jsontext (with the options the hook library reads input
// with), and prints a fixed answer. A hook cannot do less and still know
// that its input is valid JSON.
package main

import (
	"os"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

const answer = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n"

func main() {
	dec := jsontext.NewDecoder(os.Stdin, jsonopts.Lenient())
	if _, err := dec.ReadValue(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString(answer)
}
