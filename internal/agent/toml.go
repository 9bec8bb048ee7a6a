package agent

import (
	"fmt"
	"strings"
)

// TOMLString returns s as a TOML basic string ("…"), as Codex's
// config.toml reads it: quote and backslash escaped, tab, newline and
// carriage return as \t, \n and \r, other control characters as \uXXXX.
// hookctl writes hook trust with it and codextest a run's configuration.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
