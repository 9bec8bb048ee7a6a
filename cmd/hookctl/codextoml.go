package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
)

// codexTOML is what hookctl reads of a Codex config.toml.
type codexTOML struct {
	Hooks []settings.Hook
	// Codex holds, parallel to Hooks, what Codex reads of each handler
	// for its trust (see agent.CodexHook).
	Codex    []agent.CodexHook
	Problems []tomlProblem
	// HooksOff is the line of "hooks = false" (or the deprecated
	// "codex_hooks = false") under [features], 0 when there is none.
	HooksOff int
	// Trusted lists the project folders whose [projects."DIR"] table
	// sets trust_level = "trusted".
	Trusted []string
}

// tomlProblem is a line of a Codex config.toml whose hooks hookctl could
// not read.
type tomlProblem struct {
	Line int
	Msg  string
}

// readCodexTOML reads the hooks of a Codex config.toml in the form
// Codex documents: one [[hooks.EVENT]] table per matcher group (its
// "matcher" a string) and one [[hooks.EVENT.hooks]] table per handler
// (type, command, timeout, statusMessage, …, each a string, integer or
// boolean). hookctl has no TOML library (it depends on nothing beyond the
// JSON one), so it reads this form alone and never writes the file:
// whatever else holds hooks — an inline table or array, a dotted key, a
// multi-line string — is a problem naming its line, not a guess.
// [hooks.state] tables, where Codex records the trust of each hook, are
// skipped. Each Hook's Line is its [[hooks.EVENT.hooks]] header. It also
// reads whether [features] turns hooks off and which projects are trusted.
func readCodexTOML(data []byte) codexTOML {
	var (
		out      codexTOML
		hooks    []settings.Hook
		codex    []agent.CodexHook
		problems []tomlProblem
		features bool               // inside [features]
		project  string             // inside [projects."DIR"]
		groups   = map[string]int{} // groups seen per event
		matchers = map[string]*string{}
		cur      *settings.Hook // the handler whose keys follow
		curCodex *agent.CodexHook
		group    string // the event of the group whose keys follow
		inHooks  bool   // inside [hooks] itself
	)
	bad := func(line int, format string, args ...any) {
		problems = append(problems, tomlProblem{line, fmt.Sprintf(format, args...)})
	}
	flush := func() {
		if cur != nil {
			hooks = append(hooks, *cur)
			codex = append(codex, *curCodex)
			cur, curCodex = nil, nil
		}
	}
	lines := strings.Split(string(data), "\n")
	skipTo := 0 // the last line of a multi-line value being skipped
	for i, raw := range lines {
		n := i + 1
		if n <= skipTo {
			continue
		}
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			flush()
			group, inHooks, features, project = "", false, false, ""
			arr := strings.HasPrefix(line, "[[")
			keys, ok := tomlHeader(line, arr)
			if !ok {
				if strings.Contains(line, "hooks") {
					bad(n, "hookctl cannot read this table header")
				}
				continue
			}
			switch {
			case !arr && len(keys) == 1 && keys[0] == "features":
				features = true
			case !arr && len(keys) == 2 && keys[0] == "projects":
				project = keys[1]
			}
			if len(keys) == 0 || keys[0] != "hooks" {
				continue
			}
			switch {
			case len(keys) == 1 && !arr:
				inHooks = true
			case len(keys) >= 2 && keys[1] == "state" && !arr:
				// Codex's own record of trusted hooks.
			case len(keys) == 2 && arr:
				group = keys[1]
				groups[group]++
				matchers[group] = nil
			case len(keys) == 3 && arr && keys[2] == "hooks":
				ev := keys[1]
				if groups[ev] == 0 {
					bad(n, "[[hooks.%s.hooks]] before any [[hooks.%s]] group", ev, ev)
					continue
				}
				cur = &settings.Hook{Event: ev, Line: n, Column: 1,
					Group: groups[ev] - 1, Handler: settings.Handler{Type: "command"}}
				if m := matchers[ev]; m != nil {
					cur.Matcher = *m
				}
				cur.Index = countHandlers(hooks, ev, cur.Group)
				curCodex = &agent.CodexHook{Event: ev, Group: cur.Group, Index: cur.Index, Matcher: matchers[ev]}
			default:
				bad(n, "hookctl reads hooks written as [[hooks.EVENT]] and [[hooks.EVENT.hooks]] tables, not this one")
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			if cur != nil || group != "" || inHooks {
				bad(n, "not a key = value line")
			}
			continue
		}
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		if end := multiLineEnd(lines, i, val); end > n {
			skipTo = end
			if cur != nil || group != "" || inHooks {
				bad(n, "%s: hookctl cannot read a value written over several lines", key)
			}
			continue
		}
		switch {
		case features && (key == "hooks" || key == "codex_hooks"):
			if v, err := tomlScalar(val); err == nil && v == false {
				out.HooksOff = n
			}
		case project != "" && key == "trust_level":
			if v, err := tomlScalar(val); err == nil && v == "trusted" {
				out.Trusted = append(out.Trusted, project)
			}
		case inHooks:
			bad(n, "hooks.%s is written inline: hookctl reads hooks written as [[hooks.EVENT]] and [[hooks.EVENT.hooks]] tables", key)
		case cur != nil:
			v, err := tomlScalar(val)
			if err != nil {
				bad(n, "%s: %v", key, err)
				continue
			}
			if err := setTOMLHandler(cur, &curCodex.Handler, key, v); err != nil {
				bad(n, "%v", err)
			}
			cur.Fields = append(cur.Fields, key)
		case group != "":
			v, err := tomlScalar(val)
			if err != nil {
				bad(n, "%s: %v", key, err)
				continue
			}
			if key != "matcher" {
				continue // Codex ignores other members of a group
			}
			s, ok := v.(string)
			if !ok {
				bad(n, "matcher: must be a string")
				continue
			}
			matchers[group] = &s
		case strings.HasPrefix(key, "hooks.") || strings.HasPrefix(key, `"hooks".`):
			bad(n, "%s: hooks set with a dotted key: hookctl reads hooks written as [[hooks.EVENT]] and [[hooks.EVENT.hooks]] tables", key)
		}
	}
	flush()
	out.Hooks, out.Codex, out.Problems = hooks, codex, problems
	return out
}

// countHandlers counts the handlers of hs in the group'th group of event.
func countHandlers(hs []settings.Hook, event string, group int) int {
	n := 0
	for _, h := range hs {
		if h.Event == event && h.Group == group {
			n++
		}
	}
	return n
}

// setTOMLHandler sets the member key of a Codex handler read from TOML,
// in h and in c (what Codex reads of it). Codex reads timeout and
// statusMessage under these names only: timeoutSec, timeout_sec and
// status_message are left unread, as Codex leaves them.
func setTOMLHandler(h *settings.Hook, c *agent.CodexHandler, key string, v any) error {
	str := func() (string, error) {
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s: must be a string", key)
		}
		return s, nil
	}
	count := func() (*uint64, error) {
		n, ok := v.(int64)
		if !ok || n < 0 {
			return nil, fmt.Errorf("%s: must be a whole number, 0 or more", key)
		}
		u := uint64(n)
		return &u, nil
	}
	var err error
	switch key {
	case "type":
		h.Handler.Type, err = str()
	case "command":
		h.Handler.Command, err = str()
		c.Command = h.Handler.Command
	case "commandWindows", "command_windows":
		var s string
		s, err = str()
		c.CommandWindows = &s
	case "statusMessage":
		h.Handler.StatusMessage, err = str()
		c.StatusMessage = &h.Handler.StatusMessage
	case "timeout":
		c.Timeout, err = count()
		if err == nil {
			h.Handler.Timeout = float64(*c.Timeout)
		}
	case "additionalContextLimit":
		c.AdditionalContextLimit, err = count()
	case "async":
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("async: must be true or false")
		}
		h.Handler.Async, c.Async = b, b
	}
	return err
}

// tomlHeader splits a [a.b."c"] or [[a.b]] header into its keys.
func tomlHeader(line string, arr bool) ([]string, bool) {
	open, closing := "[", "]"
	if arr {
		open, closing = "[[", "]]"
	}
	body, ok := strings.CutPrefix(line, open)
	if !ok {
		return nil, false
	}
	end := strings.Index(body, closing)
	if end < 0 {
		return nil, false
	}
	if rest := strings.TrimSpace(body[end+len(closing):]); rest != "" && rest[0] != '#' {
		return nil, false
	}
	return tomlKeys(body[:end])
}

// tomlKeys splits a dotted TOML key (bare, "basic" or 'literal' parts).
func tomlKeys(s string) ([]string, bool) {
	var keys []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, false
		}
		var k string
		switch s[0] {
		case '"', '\'':
			v, rest, err := tomlString(s)
			if err != nil {
				return nil, false
			}
			k, s = v, rest
		default:
			i := 0
			for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
			if i == 0 {
				return nil, false
			}
			k, s = s[:i], s[i:]
		}
		keys = append(keys, k)
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return keys, true
		}
		if s[0] != '.' {
			return nil, false
		}
		s = s[1:]
	}
}

// tomlScalar reads a value that is a one-line string, an integer, a float
// or a boolean, with an optional comment after it. It returns a string,
// an int64, a float64 or a bool.
func tomlScalar(s string) (any, error) {
	if s == "" {
		return nil, fmt.Errorf("no value")
	}
	var v any
	rest := ""
	switch {
	case strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, "'''"):
		return nil, fmt.Errorf("hookctl cannot read multi-line strings")
	case s[0] == '"' || s[0] == '\'':
		str, r, err := tomlString(s)
		if err != nil {
			return nil, err
		}
		v, rest = str, r
	case s[0] == '[' || s[0] == '{':
		return nil, fmt.Errorf("hookctl cannot read arrays or inline tables here")
	default:
		word, r, _ := strings.Cut(s, "#")
		word = strings.TrimSpace(word)
		rest = ""
		if r != "" {
			rest = "#" + r
		}
		switch word {
		case "true":
			v = true
		case "false":
			v = false
		default:
			clean := strings.ReplaceAll(word, "_", "")
			if n, err := strconv.ParseInt(clean, 0, 64); err == nil {
				v = n
			} else if f, err := strconv.ParseFloat(clean, 64); err == nil {
				v = f
			} else {
				return nil, fmt.Errorf("hookctl cannot read the value %s", word)
			}
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return nil, fmt.Errorf("unexpected %q after the value", rest)
	}
	return v, nil
}

// tomlString reads the basic ("…") or literal ('…') string that s starts
// with and returns it and what follows.
func tomlString(s string) (string, string, error) {
	q := s[0]
	if q == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", fmt.Errorf("unterminated string")
		}
		return s[1 : 1+end], s[2+end:], nil
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(s[i])
		case 'u', 'U':
			w := 4
			if s[i] == 'U' {
				w = 8
			}
			if i+w >= len(s) {
				return "", "", fmt.Errorf("bad escape")
			}
			r, err := strconv.ParseUint(s[i+1:i+1+w], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", "", fmt.Errorf("bad escape \\%s", s[i:i+1+w])
			}
			b.WriteRune(rune(r))
			i += w
		default:
			return "", "", fmt.Errorf("bad escape \\%c", s[i])
		}
	}
	return "", "", fmt.Errorf("unterminated string")
}

// multiLineEnd returns the line number (from 1) of the last line of the
// value val that starts on lines[i]: a multi-line string, or an array or
// inline table whose brackets close on a later line; i+1 when it ends on
// its own line.
func multiLineEnd(lines []string, i int, val string) int {
	for _, q := range []string{`"""`, "'''"} {
		if rest, ok := strings.CutPrefix(val, q); ok {
			if strings.Contains(rest, q) {
				return i + 1
			}
			for j := i + 1; j < len(lines); j++ {
				if strings.Contains(lines[j], q) {
					return j + 1
				}
			}
			return len(lines)
		}
	}
	if val == "" || val[0] != '[' && val[0] != '{' {
		return i + 1
	}
	depth := 0
	for j := i; j < len(lines); j++ {
		s := val
		if j > i {
			s = lines[j]
		}
		depth += bracketDepth(s)
		if depth <= 0 {
			return j + 1
		}
	}
	return len(lines)
}

// bracketDepth returns how many more brackets s opens than it closes,
// outside strings and comments.
func bracketDepth(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '#':
			return d
		case '"', '\'':
			for i++; i < len(s) && s[i] != c; i++ {
				if c == '"' && s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			d++
		case ']', '}':
			d--
		}
	}
	return d
}
