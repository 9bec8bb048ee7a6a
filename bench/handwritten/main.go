// Command handwritten is the fingerprint hook written without the
// library's handler machinery, for bench/run.sh: it does the same work as
// examples/fingerprint (validate the input, SHA-256 of the cwd, the
// tool_input with a fingerprint member added, the same answer bytes) with
// the least code and memory a careful author could get away with.
// fingerprint ÷ handwritten is therefore what the
// library itself costs a hook; handwritten ÷ floor is what the Go runtime,
// the packages and the work cost before the library does anything.
//
// It imports the same packages as fingerprint, so the same package
// initialisation runs at start-up; its binary is smaller because the
// linker drops the library code it does not call.
//
// It is a benchmark reference, not an example: it handles only the
// listen_here calls of the benchmark's payloads, exits 1 on anything it
// does not expect, and does none of the checks the library makes. It
// answers a listen_here call of any size the same way: the member is
// appended before the closing brace of the raw tool_input, which is never
// split or copied member by member (the 7.2 MiB and 50,000-member calls
// included).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
)

func main() {
	raw, err := readAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	ms, err := rawjson.Members(raw)
	if err != nil {
		os.Exit(1)
	}
	var cwd, input []byte
	var tool string
	for _, m := range ms {
		switch m.Key {
		case "cwd":
			cwd = m.Value
		case "tool_name":
			tool = string(m.Value)
		case "tool_input":
			input = m.Value
		}
	}
	if len(tool) < 2 {
		os.Exit(1)
	}
	if _, name, ok := hook.SplitMCPToolName(tool[1 : len(tool)-1]); !ok || name != "listen_here" {
		return
	}
	// The benchmark's cwd has no escapes, and its tool_input is an object
	// without a fingerprint member and without whitespace.
	if len(cwd) < 2 || len(input) < 2 || input[0] != '{' {
		os.Exit(1)
	}
	sum := sha256.Sum256(cwd[1 : len(cwd)-1])
	out := make([]byte, 0, len(input)+160)
	out = append(out, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`...)
	out = append(out, input[:len(input)-1]...)
	if len(input) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"fingerprint":"`...)
	out = hex.AppendEncode(out, sum[:8])
	out = append(out, "\"}}}\n"...)
	os.Stdout.Write(out)
}

// readAll reads f to its end into one buffer of the file's size when f is
// a regular file (the benchmark's case), as the library does.
func readAll(f *os.File) ([]byte, error) {
	size := 512
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = int(fi.Size()) + 1
	}
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
