package agent

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// codexFixtures are Codex payloads, one per event and a few per tool; see
// codexfixtures/README.md for where each comes from.
//
//go:embed codexfixtures/*.json
var codexFixtures embed.FS

// CodexFixtures returns Codex payloads by name (the file name without
// .json, such as "pre-tool-use-mcp"): one per event Codex sends, built
// from its <event>.command.input schemas, and the shell, apply_patch and
// MCP tool calls as Codex sends them to PreToolUse. They are for hooktest
// and hookcheck, to run the same properties on Codex's payloads as on
// Claude Code's. The returned slices are copies.
func CodexFixtures() map[string][]byte {
	m := map[string][]byte{}
	names, _ := fs.Glob(codexFixtures, "codexfixtures/*.json")
	for _, n := range names {
		b, err := codexFixtures.ReadFile(n)
		if err != nil {
			continue // cannot happen: the names come from the embedded FS
		}
		m[strings.TrimSuffix(path.Base(n), ".json")] = b
	}
	return m
}
