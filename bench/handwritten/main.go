// Command handwritten is the fingerprint hook written without the
// library's handler machinery, for bench/run.sh: it does the same work as
// examples/fingerprint (validate the input, SHA-256 of the cwd, the
// tool_input with a fingerprint member added, the same answer bytes) with
// the least code and memory a careful author could get away with.
// fingerprint ÷ handwritten is therefore what the
// library itself costs a hook; handwritten ÷ floor is what the Go runtime,
// the packages and the work cost before the library does anything.
//
// It links only what a hand-written hook needs: the standard library and
// the JSON tokenizer the library itself depends on (jsontext), not package
// hook, so the start-up it pays is that of a Go program that reads JSON,
// hashes and writes; fingerprint ÷ handwritten at 300 bytes is then the
// start-up and per-call cost the library adds.
//
// It is a benchmark reference, not an example: it handles only the
// listen_here calls of the benchmark's payloads, exits 1 on anything it
// does not expect, and does none of the checks the library makes. It
// answers a listen_here call of any size the same way: the event is
// validated once by the tokenizer, and the member is appended before the
// closing brace of the raw tool_input, which is never split or copied
// member by member (the 7.2 MiB and 50,000-member calls included).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

func main() {
	raw, err := readAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		os.Exit(1)
	}
	var cwd, tool, input []byte
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			os.Exit(1)
		}
		key := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			os.Exit(1)
		}
		// v is the decoder's until the next read: take the same bytes
		// from raw instead of copying them.
		end := dec.InputOffset()
		v = raw[end-int64(len(v)) : end]
		switch key {
		case "cwd":
			cwd = v
		case "tool_name":
			tool = v
		case "tool_input":
			input = v
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		os.Exit(1)
	}
	name, err := jsontext.AppendUnquote(nil, tool)
	if err != nil {
		os.Exit(1)
	}
	if !strings.HasPrefix(string(name), "mcp__") || !strings.HasSuffix(string(name), "__listen_here") {
		return
	}
	dir, err := jsontext.AppendUnquote(nil, cwd)
	// The benchmark's tool_input is an object without a fingerprint
	// member and without whitespace.
	if err != nil || len(input) < 2 || input[0] != '{' {
		os.Exit(1)
	}
	sum := sha256.Sum256(dir)
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
