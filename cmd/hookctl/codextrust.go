package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Codex records the trust of each hook in the user's config.toml:
//
//	[hooks.state."<key>"]
//	trusted_hash = "sha256:…"
//	enabled = false
//
// (see internal/agent's CodexHookKey and CodexHookHash). hookctl reads
// these tables, and writes or removes one trusted_hash line of one of
// them, leaving every other byte of the file as it was.

// trustMark is the comment hookctl puts after a trusted_hash it writes,
// so that uninstall removes that one and no other.
const trustMark = "# trusted by hookctl install -trust"

// codexState is one [hooks.state."KEY"] table of a config.toml.
type codexState struct {
	Hash    string // trusted_hash, "" when there is none
	Enabled *bool  // enabled, nil when unset
	Line    int    // the table's header line
	Marked  bool   // the trusted_hash line carries trustMark
}

// tomlTable is one table of a TOML file as tomlScan finds it: its header
// (Keys is nil for the lines before the first header), the byte offsets
// of its header line and of its end (the next header or the end of the
// file), and its key = value lines.
type tomlTable struct {
	Keys            []string
	Array           bool
	Start, BodyFrom int // the header line, and the line after it
	End             int
	Line            int // the header's line number (0 for the top)
	Entries         []tomlEntry
}

// tomlEntry is a key = value line (a value over several lines included).
type tomlEntry struct {
	Keys       []string // the dotted key, unquoted; nil when unreadable
	Value      string   // the text after "=", trimmed
	Start, End int      // the byte offsets of its lines, End after the last newline
	Line       int
}

// tomlScan splits data into its tables. It reads no more of TOML than
// hookctl needs (headers and key = value lines, multi-line values
// skipped); a line it cannot read is kept as an entry with nil Keys.
func tomlScan(data []byte) []tomlTable {
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	trimmed := make([]string, len(lines))
	for i, l := range lines {
		trimmed[i] = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
	}
	tables := []tomlTable{{}}
	off := 0
	for i := 0; i < len(lines); i++ {
		start := off
		off += len(lines[i])
		line := strings.TrimSpace(trimmed[i])
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			arr := strings.HasPrefix(line, "[[")
			keys, ok := tomlHeader(line, arr)
			if !ok {
				keys = []string{} // a header hookctl cannot read
			}
			tables[len(tables)-1].End = start
			tables = append(tables, tomlTable{Keys: keys, Array: arr, Start: start, BodyFrom: off, Line: i + 1})
			continue
		}
		e := tomlEntry{Start: start, Line: i + 1}
		key, val, ok := strings.Cut(line, "=")
		if ok {
			if ks, ok := tomlKeys(strings.TrimSpace(key)); ok {
				e.Keys = ks
			}
			e.Value = strings.TrimSpace(val)
			if last := multiLineEnd(trimmed, i, e.Value); last > i+1 {
				for ; i < last-1; i++ {
					off += len(lines[i+1])
				}
			}
		}
		e.End = off
		t := &tables[len(tables)-1]
		t.Entries = append(t.Entries, e)
	}
	tables[len(tables)-1].End = len(data)
	return tables
}

// readCodexStates reads the [hooks.state."KEY"] tables of a Codex
// config.toml, by key (trimmed, as Codex reads it). unread is the line of
// the first place that sets hook state in another form (an inline table,
// a dotted key), which hookctl does not read: 0 when there is none.
func readCodexStates(data []byte) (states map[string]codexState, unread int) {
	states = map[string]codexState{}
	for _, t := range tomlScan(data) {
		if n := otherStateForm(t, ""); n > 0 {
			if unread == 0 {
				unread = n
			}
			continue
		}
		if t.Array || len(t.Keys) != 3 || t.Keys[0] != "hooks" || t.Keys[1] != "state" {
			continue
		}
		st := codexState{Line: t.Line}
		for _, e := range t.Entries {
			if len(e.Keys) != 1 {
				continue
			}
			v, err := tomlScalar(e.Value)
			if err != nil {
				continue
			}
			switch e.Keys[0] {
			case "trusted_hash":
				if s, ok := v.(string); ok {
					st.Hash = s
					st.Marked = strings.HasSuffix(strings.TrimSpace(e.Value), trustMark)
				}
			case "enabled":
				if b, ok := v.(bool); ok {
					st.Enabled = &b
				}
			}
		}
		states[strings.TrimSpace(t.Keys[2])] = st
	}
	return states, unread
}

// otherStateForm returns the line of the table t or of one of its entries
// that sets hook state (for the key key, or any key when key is "") in a
// form other than a [hooks.state."KEY"] table of key = value lines: 0
// when there is none.
func otherStateForm(t tomlTable, key string) int {
	forKey := func(k string) bool { return key == "" || strings.TrimSpace(k) == key }
	ks := t.Keys
	switch {
	case ks == nil: // the top of the file: hooks = {…}, hooks.state… = …
		for _, e := range t.Entries {
			if len(e.Keys) >= 1 && e.Keys[0] == "hooks" && (len(e.Keys) == 1 || e.Keys[1] == "state" && (len(e.Keys) == 2 || forKey(e.Keys[2]))) {
				return e.Line
			}
		}
	case len(ks) == 1 && ks[0] == "hooks" && !t.Array:
		for _, e := range t.Entries {
			if len(e.Keys) >= 1 && e.Keys[0] == "state" && (len(e.Keys) == 1 || forKey(e.Keys[1])) {
				return e.Line
			}
		}
	case len(ks) == 2 && ks[0] == "hooks" && ks[1] == "state":
		if t.Array {
			return t.Line
		}
		for _, e := range t.Entries {
			if len(e.Keys) >= 1 && forKey(e.Keys[0]) {
				return e.Line
			}
		}
	case len(ks) >= 3 && ks[0] == "hooks" && ks[1] == "state" && forKey(ks[2]):
		if t.Array || len(ks) > 3 {
			return t.Line
		}
		for _, e := range t.Entries {
			if len(e.Keys) > 1 {
				return e.Line
			}
		}
	}
	return 0
}

// setTrust returns data with the trusted_hash of the hook key set to
// hash, marked as hookctl's: the value of the trusted_hash line of its
// [hooks.state."KEY"] table is replaced (its comment kept, the mark
// added), the line added under the table's header when the table has
// none, or the table added at the end of the file. It reports whether
// data changed; a file that sets this hook's state in another form is an
// error, as an edit could then make the file one Codex cannot load.
func setTrust(data []byte, key, hash string) ([]byte, bool, error) {
	nl := lineEnding(data)
	tables := tomlScan(data)
	var table *tomlTable
	for i := range tables {
		t := &tables[i]
		if n := otherStateForm(*t, key); n > 0 {
			return data, false, fmt.Errorf("line %d sets the state of this hook in a form hookctl does not edit (an inline table or a dotted key): trust it with /hooks in codex, or write it as a [hooks.state.%s] table", n, tomlQuote(key))
		}
		if !t.Array && len(t.Keys) == 3 && t.Keys[0] == "hooks" && t.Keys[1] == "state" && strings.TrimSpace(t.Keys[2]) == key && table == nil {
			table = t
		}
	}
	line := "trusted_hash = " + tomlQuote(hash) + " " + trustMark
	if table == nil {
		var b bytes.Buffer
		b.Write(data)
		if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
			b.WriteString(nl)
		}
		if len(bytes.TrimSpace(data)) > 0 {
			b.WriteString(nl)
		}
		b.WriteString("[hooks.state." + tomlQuote(key) + "]" + nl + line + nl)
		return b.Bytes(), true, nil
	}
	for _, e := range table.Entries {
		if len(e.Keys) != 1 || e.Keys[0] != "trusted_hash" {
			continue
		}
		if v, err := tomlScalar(e.Value); err == nil && v == hash && strings.HasSuffix(e.Value, trustMark) {
			return data, false, nil
		}
		old := string(data[e.Start:e.End])
		indent := old[:len(old)-len(strings.TrimLeft(old, " \t"))]
		return splice(data, e.Start, e.End, indent+line+nl), true, nil
	}
	return splice(data, table.BodyFrom, table.BodyFrom, line+nl), true, nil
}

// removeTrust returns data without the trusted_hash hookctl wrote for the
// hook key when it is hash: the marked line, and its [hooks.state."KEY"]
// table with it when nothing else is left in it. A trusted_hash hookctl
// did not write, or of another hash, is left alone. It reports whether
// data changed.
func removeTrust(data []byte, key, hash string) ([]byte, bool) {
	for _, t := range tomlScan(data) {
		if t.Array || len(t.Keys) != 3 || t.Keys[0] != "hooks" || t.Keys[1] != "state" || strings.TrimSpace(t.Keys[2]) != key {
			continue
		}
		for _, e := range t.Entries {
			if len(e.Keys) != 1 || e.Keys[0] != "trusted_hash" || !strings.HasSuffix(e.Value, trustMark) {
				continue
			}
			if v, err := tomlScalar(e.Value); err != nil || v != hash {
				return data, false
			}
			if len(t.Entries) > 1 {
				return splice(data, e.Start, e.End, ""), true
			}
			// The table holds nothing else: remove its header and the
			// line, and the blank line setTrust put before it.
			start := t.Start
			if start > 0 {
				before := data[:start]
				if bytes.HasSuffix(before, []byte("\n\n")) {
					start--
				} else if bytes.HasSuffix(before, []byte("\r\n\r\n")) {
					start -= 2
				}
			}
			return splice(data, start, e.End, ""), true
		}
	}
	return data, false
}

// splice returns data with data[start:end] replaced by text.
func splice(data []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// lineEnding returns the line ending data uses: "\r\n" when its first
// line ends so, else "\n".
func lineEnding(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
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
			b.WriteString(`\u` + fmt.Sprintf("%04X", r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// codexSource returns the path Codex names the file name of the
// configuration folder dir by in the keys of its hooks: dir made
// absolute with its symbolic links resolved (as Codex resolves
// CODEX_HOME), then name.
func codexSource(dir, name string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return filepath.Join(abs, name)
}

// trustOf describes the trust Codex gives a hook whose key and hash are
// key and hash, under states (the user's [hooks.state]): "" when it is
// trusted and enabled, else why it will not run.
func trustOf(states map[string]codexState, key, hash string) (msg, fix string) {
	st, ok := states[key]
	switch {
	case ok && st.Enabled != nil && !*st.Enabled:
		return fmt.Sprintf("turned off in the user's config.toml ([hooks.state.%s] enabled = false, line %d): will not run", tomlQuote(key), st.Line),
			"turn it on with /hooks in codex, or remove the enabled line"
	case !ok || st.Hash == "":
		return "installed, not trusted: will not run",
			"review and trust it with /hooks in codex, or install it again with hookctl install -agent codex … -trust (codex exec --dangerously-bypass-hook-trust runs untrusted hooks for one run)"
	case st.Hash != hash:
		return fmt.Sprintf("changed since it was trusted (line %d of the user's config.toml holds another hash): will not run", st.Line),
			"review and trust it again with /hooks in codex, or with hookctl install -agent codex … -trust"
	}
	return "", ""
}

// readUserStates reads the hook states of the user's config.toml in the
// folder home.
func readUserStates(home string) (map[string]codexState, int, error) {
	data, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]codexState{}, 0, nil
		}
		return nil, 0, err
	}
	states, unread := readCodexStates(data)
	return states, unread, nil
}
