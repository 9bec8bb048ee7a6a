// Package benchpayload generates the PreToolUse events that the benchmarks and
// bench/run.sh measure hooks on: a small MCP call, a 145 KB Write and a
// 7 MB Write whose content is full of escapes. The events are built
// deterministically on each call, in the shape Claude Code sends them (one
// compact JSON object); nothing is built at start-up.
package benchpayload

import (
	"strconv"
	"strings"
)

// Payload is one generated hook event.
type Payload struct {
	// Name is a short name usable as a file name, e.g. "mcp-300B".
	Name string
	// Data is the event's JSON, without a trailing newline.
	Data []byte
}

// All returns the three payloads, smallest first.
func All() []Payload {
	return []Payload{
		{"mcp-300B", MCP()},
		{"write-145KB", Write(145 << 10)},
		{"write-7MB", Write(7 << 20)},
	}
}

// Cwd is the session directory in every payload.
const Cwd = "/home/dev/acme-api"

const session = "5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d"

// head writes the members every Write payload starts with.
func head(b *strings.Builder) {
	b.WriteString(`{"session_id":"` + session + `",`)
	b.WriteString(`"transcript_path":"/home/dev/.claude/projects/-home-dev-acme-api/` + session + `.jsonl",`)
	b.WriteString(`"cwd":"` + Cwd + `","permission_mode":"default","hook_event_name":"PreToolUse",`)
}

// MCP returns a 300-byte PreToolUse event for the MCP tool
// mcp__probe__listen_here, the call the fingerprint example answers. Its
// room holds a quote, a backslash, non-ASCII text and a tab.
func MCP() []byte {
	var b strings.Builder
	b.WriteString(`{"session_id":"` + session + `","transcript_path":"/home/dev/.claude/t.jsonl",`)
	b.WriteString(`"cwd":"` + Cwd + `","hook_event_name":"PreToolUse",`)
	b.WriteString(`"tool_name":"mcp__probe__listen_here","tool_input":{"room":"Ops \"war room\" \\ Zürich\tnight`)
	// Pad the room so that the whole event is exactly 300 bytes.
	tail := `"},"tool_use_id":"toolu_01"}`
	for b.Len()+len(tail) < 300 {
		b.WriteByte('!')
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// lines are the pieces Write content is built from. Each is written as
// JSON string content, escapes included, the way JSON.stringify writes
// source text: newlines, tabs, quotes, backslashes, \u escapes of
// non-ASCII and control characters, and raw non-ASCII text.
var lines = [...]string{
	`package main\n`,
	`\n`,
	`import \"fmt\"\n`,
	`\t// K\u00f6ln, Z\u00fcrich, na\u00efve \u2014 caf\u00e9 \u00f6\u00e4\u00fc\n`,
	`\tfmt.Printf(\"%s\\t%q\\n\", path, \"C:\\\\Users\\\\dev\")\n`,
	`\tif s == \"\\\"\" || s == \"\\\\\" {\r\n`,
	`\t\treturn \"\\u00f6\" // raw: ö, Zürich ☕\n`,
	`\t}\n`,
	`\tesc := \"\u001b[31m\" + \"red\" + \"\u001b[0m\"\t\/\/ ANSI\n`,
	`\temoji := \"\ud83d\ude00 \ud83c\udf89\"\n`,
	`\tre := regexp.MustCompile(` + "`" + `^\\s*\\$\\{([a-z]+)\\}` + "`" + `)\n`,
	`}\n`,
}

// Write returns a PreToolUse event for the built-in Write tool whose
// content makes the whole event at least size bytes. The content is Go
// source in JSON.stringify's escaping, so a large share of it is escape
// sequences (\n, \t, \", \\, \u00f6, \u001b, surrogate pairs).
func Write(size int) []byte {
	var b strings.Builder
	b.Grow(size + 256)
	head(&b)
	b.WriteString(`"tool_name":"Write","tool_input":{"file_path":"/home/dev/acme-api/gen/big_` + strconv.Itoa(size) + `.go","content":"`)
	tail := `"},"tool_use_id":"toolu_02"}`
	for i := 0; b.Len()+len(tail) < size; i++ {
		b.WriteString(lines[i%len(lines)])
	}
	b.WriteString(tail)
	return []byte(b.String())
}
