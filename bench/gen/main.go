// Command gen writes the benchmark payloads of package payload into a
// directory, one file per payload named <name>.json, each ending with a
// newline as Claude Code sends it, and mcp-40MB.json, the 40 MB MCP call
// (a 40 MB tool_input, compact, as Claude Code sends it) of the whole
// process's memory target. For the MCP calls it also writes
// <name>-spaced.json, with Python's json.dumps separators (", " and
// ": "), and <name>-indented.json, pretty-printed one member a line with
// CRLF, spaces and tabs: the same calls, strings byte for byte, with
// whitespace between their tokens (issue 32, item 6).
//
//	go run ./bench/gen DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gohooks/hook/internal/benchpayload"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	all := append(benchpayload.All(), benchpayload.Payload{Name: "mcp-40MB", Data: benchpayload.MCPLarge(40_000_000)})
	for _, p := range all {
		if strings.HasPrefix(p.Name, "mcp-") {
			all = append(all,
				benchpayload.Payload{Name: p.Name + "-spaced", Data: benchpayload.Spaced(p.Data)},
				benchpayload.Payload{Name: p.Name + "-indented", Data: benchpayload.Indented(p.Data)})
		}
	}
	for _, p := range all {
		name := filepath.Join(os.Args[1], p.Name+".json")
		if err := os.WriteFile(name, append(p.Data, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
