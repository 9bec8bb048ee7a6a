// Command echovalidate is the reference bench/run.sh compares the
// fingerprint hook with on large MCP calls that it answers by echoing
// their tool_input: "validate once and echo, built on jsontext alone". It
// reads the event from stdin with a jsontext decoder (with the options the
// hook library reads input with, as bench/floorvalidate does), so every
// byte is validated once, duplicate names included; it keeps the raw
// tool_input and, for the MCP tool listen_here, writes the same answer
// bytes as examples/fingerprint: the raw tool_input with a fingerprint
// member (the first 16 hex digits of the SHA-256 of the cwd) added before
// its closing brace. For any other tool or event it writes nothing.
//
// It links neither the hook library nor internal/rawjson: it is what a
// careful author gets from jsontext alone. It is a benchmark reference,
// not an example: it assumes the benchmark's tool_input, which is compact
// and has no fingerprint member, and exits 1 on anything invalid.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

func main() {
	dec := jsontext.NewDecoder(os.Stdin, jsonopts.Lenient())
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		fail(err)
	}
	var event, cwd, tool string
	var input []byte
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			fail(err)
		}
		switch name.String() {
		case "hook_event_name":
			event = readString(dec)
		case "cwd":
			cwd = readString(dec)
		case "tool_name":
			tool = readString(dec)
		case "tool_input":
			v, err := dec.ReadValue()
			if err != nil {
				fail(err)
			}
			// The value is valid only until the next read.
			input = bytes.Clone(v)
		default:
			if err := dec.SkipValue(); err != nil {
				fail(err)
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		fail(err)
	}
	// Nothing but white space may follow the object.
	if _, err := dec.ReadToken(); err != io.EOF {
		fail(err)
	}
	if event != "PreToolUse" || !listenHere(tool) {
		return
	}
	if len(input) < 2 || input[0] != '{' {
		fail(nil)
	}
	sum := sha256.Sum256([]byte(cwd))
	out := make([]byte, 0, len(input)+160)
	out = append(out, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`...)
	out = append(out, input[:len(input)-1]...)
	if len(input) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"fingerprint":"`...)
	out = hex.AppendEncode(out, sum[:8])
	out = append(out, "\"}}}\n"...)
	if _, err := os.Stdout.Write(out); err != nil {
		fail(err)
	}
}

// readString reads the next value, which must be a string, and returns
// it unescaped.
func readString(dec *jsontext.Decoder) string {
	tok, err := dec.ReadToken()
	if err != nil || tok.Kind() != '"' {
		fail(err)
	}
	return tok.String()
}

// listenHere reports whether tool is an MCP tool "mcp__<server>__<tool>"
// named listen_here, as hook.SplitMCPToolName splits it.
func listenHere(tool string) bool {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return false
	}
	server, name, ok := strings.Cut(rest, "__")
	return ok && server != "" && name == "listen_here"
}

func fail(err error) {
	if err != nil {
		os.Stderr.WriteString("echovalidate: " + err.Error() + "\n")
	}
	os.Exit(1)
}
