// Package benchpayload generates the PreToolUse events that the benchmarks and
// bench/run.sh measure hooks on: a small MCP call, a 145 KB Write, a 7 MB
// Write whose content is full of escapes, a 7.2 MB MCP call of the same
// escape-heavy text and an MCP call whose tool_input has 50,000 members.
// The events are built deterministically on each call, in the shape Claude
// Code sends them (one compact JSON object); nothing is built at start-up.
// Sizes are in binary units, as in the payloads' names (KB is 1024 bytes).
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

// All returns every payload: the 300-byte MCP call and the two Writes,
// smallest first, then the two large MCP calls, which the fingerprint
// example answers by echoing their whole tool_input.
func All() []Payload {
	return []Payload{
		{"mcp-300B", MCP()},
		{"write-145KB", Write(145 << 10)},
		{"write-7MB", Write(7 << 20)},
		{"mcp-7MB", MCPLarge(72 << 20 / 10)},
		{"mcp-50k", MCPMembers(50_000)},
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

// mcpHead is what every MCP payload starts with, up to the tool_input's
// opening brace.
const mcpHead = `{"session_id":"` + session + `","transcript_path":"/home/dev/.claude/t.jsonl",` +
	`"cwd":"` + Cwd + `","hook_event_name":"PreToolUse",` +
	`"tool_name":"mcp__probe__listen_here","tool_input":{`

// room is the start of the room member of the MCP payloads: it holds a
// quote, a backslash, non-ASCII text and a tab.
const room = `"room":"Ops \"war room\" \\ Zürich\tnight`

// MCP returns a 300-byte PreToolUse event for the MCP tool
// mcp__probe__listen_here, the call the fingerprint example answers. Its
// room holds a quote, a backslash, non-ASCII text and a tab.
func MCP() []byte {
	var b strings.Builder
	b.WriteString(mcpHead + room)
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

// MCPLarge returns a PreToolUse event for mcp__probe__listen_here whose
// tool_input is {"room":..., "notes":...} and makes the whole event at
// least size bytes: the room of MCP, and notes made of the same
// escape-heavy text as Write's content. The fingerprint example answers it
// with the whole tool_input and one member more.
func MCPLarge(size int) []byte {
	var b strings.Builder
	b.Grow(size + 256)
	b.WriteString(mcpHead + room + `","notes":"`)
	tail := `"},"tool_use_id":"toolu_03"}`
	for i := 0; b.Len()+len(tail) < size; i++ {
		b.WriteString(lines[i%len(lines)])
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// MCPMembers returns a PreToolUse event for mcp__probe__listen_here whose
// tool_input is {"room":"x","k0":0,"k1":1,...} with n members after the
// room (50,000 make a 711 KB event), as a model can send to an MCP tool.
func MCPMembers(n int) []byte {
	b := make([]byte, 0, 64+len(mcpHead)+n*16)
	b = append(b, mcpHead+`"room":"x"`...)
	for i := range n {
		b = append(b, `,"k`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return append(b, `},"tool_use_id":"toolu_04"}`...)
}

// Spaced returns the JSON text data with Python's json.dumps separators:
// a space after every comma and colon between tokens. The bytes of the
// strings are kept as they are, so that a hook's answer to it is the
// answer to data.
func Spaced(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/16)
	in := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		out = append(out, c)
		switch {
		case in && c == '\\':
			i++
			out = append(out, data[i])
		case c == '"':
			in = !in
		case !in && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

// Indented returns the JSON text data pretty-printed one member or
// element a line, as Python's json.dumps(indent=2) prints it, but with
// CRLF line ends and, below the first level, a tab more per level, so
// that every kind of JSON whitespace is between its tokens. The bytes of
// the strings are kept as they are.
func Indented(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/8)
	in, depth := false, 0
	newline := func(d int) {
		out = append(out, '\r', '\n')
		for k := range d {
			if k >= 1 {
				out = append(out, '\t')
			} else {
				out = append(out, ' ', ' ')
			}
		}
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case in:
			out = append(out, c)
			if c == '\\' {
				i++
				out = append(out, data[i])
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
			out = append(out, c)
		case c == '{' || c == '[':
			depth++
			out = append(out, c)
			if i+1 < len(data) && data[i+1] != '}' && data[i+1] != ']' {
				newline(depth)
			}
		case c == '}' || c == ']':
			depth--
			if i > 0 && data[i-1] != '{' && data[i-1] != '[' {
				newline(depth)
			}
			out = append(out, c)
		case c == ',':
			out = append(out, c)
			newline(depth)
		case c == ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}
