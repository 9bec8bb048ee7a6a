package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
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
	text := line + nl
	if table.BodyFrom > 0 && data[table.BodyFrom-1] != '\n' {
		text = nl + text // the header ends the file without a newline
	}
	return splice(data, table.BodyFrom, table.BodyFrom, text), true, nil
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
func tomlQuote(s string) string { return agent.TOMLString(s) }

// codexSource returns the path Codex names the file name of the
// configuration folder dir by in the keys of its hooks: dir made
// absolute with its symbolic links resolved (as Codex resolves
// CODEX_HOME), then name.
func codexSource(dir, name string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	// A folder not made yet (install -dry-run) is named by its nearest
	// existing parent's real path and the rest.
	rest := name
	for p := abs; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(abs, name)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// The trust states of a Codex hook that list shows (TRUST, "trust").
const (
	trustTrusted          = "trusted"           // trusted and enabled: runs
	trustUntrusted        = "untrusted"         // no trusted hash: does not run
	trustChanged          = "changed"           // another hash trusted: does not run
	trustDisabled         = "disabled"          // enabled = false: does not run
	trustProjectUntrusted = "project-untrusted" // its project is not trusted: not loaded
	trustUnchecked        = "unchecked"         // the user's hook states could not be read
)

// trustState returns the trust state Codex gives a hook whose key and
// hash are key and hash, under states (the user's [hooks.state]), and the
// hook's state entry.
func trustState(states map[string]codexState, key, hash string) (string, codexState) {
	st, ok := states[key]
	switch {
	case ok && st.Enabled != nil && !*st.Enabled:
		return trustDisabled, st
	case !ok || st.Hash == "":
		return trustUntrusted, st
	case st.Hash != hash:
		return trustChanged, st
	}
	return trustTrusted, st
}

// trustOf describes the trust Codex gives a hook whose key and hash are
// key and hash, under states (the user's [hooks.state]): "" when it is
// trusted and enabled, else why it will not run.
func trustOf(states map[string]codexState, key, hash string) (msg, fix string) {
	switch state, st := trustState(states, key, hash); state {
	case trustDisabled:
		return fmt.Sprintf("turned off in the user's config.toml ([hooks.state.%s] enabled = false, line %d): will not run", tomlQuote(key), st.Line),
			"turn it on with /hooks in codex, or remove the enabled line"
	case trustUntrusted:
		return "installed, not trusted: will not run",
			"review and trust it with /hooks in codex, or install it again with hookctl install -agent codex … -trust (codex exec --dangerously-bypass-hook-trust runs untrusted hooks for one run)"
	case trustChanged:
		return fmt.Sprintf("changed since it was trusted (line %d of the user's config.toml holds another hash): will not run", st.Line),
			"review and trust it again with /hooks in codex, or with hookctl install -agent codex … -trust"
	}
	return "", ""
}

// readUserStates reads the hook states of the user's config.toml in the
// folder home.
func readUserStates(home string) (map[string]codexState, int, error) {
	data, err := settings.ReadRegular(filepath.Join(home, "config.toml"))
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]codexState{}, 0, nil
		}
		return nil, 0, err
	}
	states, unread := readCodexStates(data)
	return states, unread, nil
}

// codexTrust writes and removes the trust of the hooks install and
// uninstall -agent codex edit: config is the user's config.toml (shown
// as shown), source the path Codex names their hooks.json by.
type codexTrust struct {
	config, shown, source string
	dryRun                bool
	stdout, stderr        io.Writer
}

// codexHooksFor returns the hooks of the Codex hooks.json data that are
// the registration e (settings.Handler.Same, as install and uninstall
// match it).
func codexHooksFor(data []byte, e settings.Entry) []agent.CodexHook {
	hs, err := settings.Parse(data)
	if err != nil {
		return nil
	}
	ch, err := agent.CodexHooksOf(data)
	if err != nil {
		return nil
	}
	var out []agent.CodexHook
	for _, c := range ch {
		for _, h := range hs {
			if h.Event == c.Event && h.Group == c.Group && h.Index == c.Index &&
				h.Event == e.Event && h.Matcher == e.Matcher && h.Handler.Same(e.Handler) {
				out = append(out, c)
			}
		}
	}
	return out
}

// edit applies f to the user's config.toml through settings.Update (or,
// with -dry-run, prints the diff it would make), and returns what f said.
func (t codexTrust) edit(f func(data []byte) ([]byte, string, error)) (string, error) {
	return applyEdit(t.config, t.shown, t.dryRun, f, t.stdout, t.stderr)
}

// trust writes the trusted_hash of each hook of the hooks.json data
// (after install) that is e.
func (t codexTrust) trust(data []byte, e settings.Entry) error {
	hooks := codexHooksFor(data, e)
	if len(hooks) == 0 {
		return fmt.Errorf("internal error: the hook installed is not in the file as Codex reads it")
	}
	for _, h := range hooks {
		hash, err := h.Hash()
		if err != nil {
			return fmt.Errorf("cannot trust the hook: %w", err)
		}
		key := h.Key(t.source)
		what, err := t.edit(func(data []byte) ([]byte, string, error) {
			out, changed, err := setTrust(data, key, hash)
			if err != nil {
				return data, "", err
			}
			if !changed {
				return out, "already trusted, unchanged", nil
			}
			return out, "trusted", nil
		})
		if err != nil {
			return err
		}
		if !t.dryRun {
			fmt.Fprintf(t.stdout, "%s: %s [hooks.state.%s] trusted_hash = %q\n", t.shown, what, tomlQuote(key), hash)
		}
	}
	return nil
}

// tell says, after an install without -trust, whether Codex will run the
// hooks of data that are e, and how to trust those it will not.
func (t codexTrust) tell(data []byte, e settings.Entry) {
	states, unread, err := readUserStates(filepath.Dir(t.config))
	for _, h := range codexHooksFor(data, e) {
		hash, herr := h.Hash()
		if err != nil || unread > 0 || herr != nil {
			fmt.Fprintf(t.stderr, "hookctl: note: Codex runs a new or changed hook only once it is trusted: review it with /hooks in codex, or install it again with -trust\n")
			return
		}
		if msg, _ := trustOf(states, h.Key(t.source), hash); msg != "" {
			fmt.Fprintf(t.stderr, "hookctl: note: %s (Codex runs a hook only once it is trusted, and again after any change): review and trust it with /hooks in codex, or install it again with -trust, which writes its trusted_hash into %s; codex exec --dangerously-bypass-hook-trust runs untrusted hooks for one run\n", msg, t.shown)
		}
	}
}

// untrust removes the trusted_hash install -trust wrote for each hook of
// before (the hooks.json before uninstall) that is e, and warns about the
// trusted hooks the removal moved: Codex keys trust by position, so a
// hook that moves is no longer trusted.
func (t codexTrust) untrust(before, after []byte, e settings.Entry) error {
	gone := codexHooksFor(before, e)
	states, _, err := readUserStates(filepath.Dir(t.config))
	if err != nil {
		return err
	}
	for _, h := range gone {
		hash, err := h.Hash()
		if err != nil {
			continue
		}
		// The trust install -trust wrote for this hook: at its key, or
		// at a key of the same file and event it had before another
		// removal moved it.
		key := h.Key(t.source)
		prefix := strings.TrimSuffix(agent.CodexHookKey(t.source, h.Event, 0, 0), "0:0")
		var keys []string
		for k, st := range states {
			if st.Hash == hash && (k == key || st.Marked && strings.HasPrefix(k, prefix)) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !states[k].Marked {
				fmt.Fprintf(t.stderr, "hookctl: note: %s still trusts the hook at %s: left alone, as hookctl did not write it\n", t.shown, k)
				continue
			}
			what, err := t.edit(func(data []byte) ([]byte, string, error) {
				out, removed := removeTrust(data, k, hash)
				if !removed {
					return data, "unchanged", nil
				}
				return out, "removed the trust of", nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(t.stdout, "%s: %s %s\n", t.shown, what, k)
			delete(states, k)
		}
	}
	t.warnMoved(before, after, gone, states)
	return nil
}

// warnMoved warns about each hook of before, other than gone, that Codex
// trusted at its old position and no longer trusts at its new one in
// after.
func (t codexTrust) warnMoved(before, after []byte, gone []agent.CodexHook, states map[string]codexState) {
	old, err1 := agent.CodexHooksOf(before)
	now, err2 := agent.CodexHooksOf(after)
	if err1 != nil || err2 != nil {
		return
	}
	same := func(a, b agent.CodexHook) bool { return a.Event == b.Event && a.Group == b.Group && a.Index == b.Index }
	left := map[string][]agent.CodexHook{}
	for _, h := range old {
		if !slices.ContainsFunc(gone, func(g agent.CodexHook) bool { return same(g, h) }) {
			left[h.Event] = append(left[h.Event], h)
		}
	}
	byEvent := map[string][]agent.CodexHook{}
	for _, h := range now {
		byEvent[h.Event] = append(byEvent[h.Event], h)
	}
	for ev, hs := range left {
		for i, h := range hs {
			if i >= len(byEvent[ev]) {
				break
			}
			n := byEvent[ev][i]
			hash, err := h.Hash()
			if err != nil || same(h, n) {
				continue
			}
			if msg, _ := trustOf(states, h.Key(t.source), hash); msg != "" {
				continue // not trusted before either
			}
			if msg, _ := trustOf(states, n.Key(t.source), hash); msg != "" {
				fmt.Fprintf(t.stderr, "hookctl: warning: the %s hook %q moved from %s to %s: Codex keys trust by position, so it no longer runs it; trust it again with /hooks in codex, or install it again with -trust\n",
					ev, n.Handler.Command, h.Key(t.source), n.Key(t.source))
			}
		}
	}
}
