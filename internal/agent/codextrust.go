package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gohooks/hook/internal/rawjson"
)

// Codex runs a hook from a user's or a project's hooks.json or config.toml
// only once the user trusts it: the user's config.toml then holds
//
//	[hooks.state."<source>:<event label>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// where <source> is the absolute path of the file the hook came from (its
// folder with symbolic links resolved), <event label> the event in snake
// case (pre_tool_use), and <group> and <handler> the positions, from 0, of
// the matcher group in the event's list and of the handler in the group's
// "hooks" (every handler counts, whatever its type). The hash is of the
// hook's normalized identity, so that a hook whose command, timeout,
// matcher, … changes is no longer trusted ("modified"), and one moved to
// another position is trusted no more ("untrusted"). An entry may also
// hold enabled = false, which turns the hook off whatever its trust.
// What follows is checked against Codex CodexVersion: e2e/codextrust_test.go
// compares every key and hash with those `codex app-server` lists.

// CodexHandler is a command handler of a Codex hooks file, holding the
// members Codex reads (hooks.json and config.toml alike); a nil pointer is
// a member that is absent or null.
type CodexHandler struct {
	Command string
	// CommandWindows (commandWindows, or command_windows) replaces
	// Command on Windows.
	CommandWindows *string
	// Timeout is "timeout", in seconds. Codex reads no other spelling:
	// timeoutSec and timeout_sec are ignored.
	Timeout                *uint64
	Async                  bool
	StatusMessage          *string // statusMessage (status_message is ignored)
	AdditionalContextLimit *uint64 // additionalContextLimit
}

// effectiveCommand is the command Codex runs on this system.
func (h CodexHandler) effectiveCommand() string {
	if runtime.GOOS == "windows" && h.CommandWindows != nil {
		return *h.CommandWindows
	}
	return h.Command
}

// codexHookEvents lists the events a Codex hooks.json may hold, with the
// label Codex gives each in a trust key, whether it reads a group's
// matcher for it (for the others the matcher is ignored, and left out of
// the hash), and whether its answer can carry additionalContext (for the
// others Codex ignores a handler's additionalContextLimit, with a
// warning, and leaves it out of the hash).
var codexHookEvents = map[string]struct {
	label            string
	matcher, context bool
}{
	"PreModelRequest":   {"pre_model_request", false, false},
	"PostModelRequest":  {"post_model_request", false, false},
	"PreToolUse":        {"pre_tool_use", true, true},
	"PermissionRequest": {"permission_request", true, false},
	"PostToolUse":       {"post_tool_use", true, true},
	"PreCompact":        {"pre_compact", true, false},
	"PostCompact":       {"post_compact", true, false},
	"SessionStart":      {"session_start", true, true},
	"SessionEnd":        {"session_end", true, false},
	"UserPromptSubmit":  {"user_prompt_submit", false, true},
	"SubagentStart":     {"subagent_start", true, true},
	"SubagentStop":      {"subagent_stop", true, false},
	"Stop":              {"stop", false, false},
	"Interrupt":         {"interrupt", false, false},
}

// CodexConfigEvent reports whether a Codex hooks.json (or the [hooks] of a
// config.toml) may hold hooks for event: Codex refuses the whole file
// when it names another.
func CodexConfigEvent(event string) bool {
	_, ok := codexHookEvents[event]
	return ok
}

// CodexTimeout returns the timeout, in seconds, Codex gives a handler of
// event whose "timeout" is t (nil when unset): 600 by default and at least
// 1; on SessionEnd and Interrupt, which Codex runs as it stops, 1 by
// default and between 1 and 3.
func CodexTimeout(event string, t *uint64) uint64 {
	short := event == "SessionEnd" || event == "Interrupt"
	var v uint64 = 600
	if short {
		v = 1
	}
	if t != nil {
		v = *t
	}
	v = max(v, 1)
	if short {
		v = min(v, 3)
	}
	return v
}

// CodexHookKey returns the key of a hook's entry in [hooks.state]: source
// is the absolute path of its file as Codex names it (see
// CodexSourcePath), group and handler its positions, from 0.
func CodexHookKey(source, event string, group, handler int) string {
	label := codexHookEvents[event].label
	if label == "" {
		label = event
	}
	return source + ":" + label + ":" + strconv.Itoa(group) + ":" + strconv.Itoa(handler)
}

// CodexHookHash returns the trusted_hash Codex records for the command
// handler h of event in a group whose matcher is matcher (nil when the
// group has none): "sha256:" and the hex SHA-256 of the handler's
// normalized identity — the JSON object
//
//	{"event_name": LABEL, "hooks": [{"additionalContextLimit": N,
//	 "async": B, "command": S, "statusMessage": S, "timeout": N,
//	 "type": "command"}], "matcher": S}
//
// with its keys sorted and no white space, as serde_json writes it, where
// timeout is the effective one (CodexTimeout), command the one Codex runs
// on this system, and additionalContextLimit, statusMessage and matcher
// are left out when unset (matcher, and additionalContextLimit, also on
// the events that ignore them).
// It fails for an event no hooks file may hold and for a value Codex
// could not hash either.
func CodexHookHash(event string, matcher *string, h CodexHandler) (string, error) {
	ev, ok := codexHookEvents[event]
	if !ok {
		return "", fmt.Errorf("codex has no hook event %q", event)
	}
	timeout := CodexTimeout(event, h.Timeout)
	if !ev.context {
		h.AdditionalContextLimit = nil
	}
	// Codex hashes a TOML value: an integer beyond int64 has none.
	if timeout > 1<<63-1 || h.AdditionalContextLimit != nil && *h.AdditionalContextLimit > 1<<63-1 {
		return "", fmt.Errorf("a number beyond %d cannot be hashed", int64(1<<63-1))
	}
	b := make([]byte, 0, 128+len(h.Command))
	b = append(b, `{"event_name":`...)
	b = appendSerdeString(b, ev.label)
	b = append(b, `,"hooks":[{`...)
	if h.AdditionalContextLimit != nil {
		b = append(b, `"additionalContextLimit":`...)
		b = strconv.AppendUint(b, *h.AdditionalContextLimit, 10)
		b = append(b, ',')
	}
	b = append(b, `"async":`...)
	b = strconv.AppendBool(b, h.Async)
	b = append(b, `,"command":`...)
	b = appendSerdeString(b, h.effectiveCommand())
	if h.StatusMessage != nil {
		b = append(b, `,"statusMessage":`...)
		b = appendSerdeString(b, *h.StatusMessage)
	}
	b = append(b, `,"timeout":`...)
	b = strconv.AppendUint(b, timeout, 10)
	b = append(b, `,"type":"command"}]`...)
	if matcher != nil && ev.matcher {
		b = append(b, `,"matcher":`...)
		b = appendSerdeString(b, *matcher)
	}
	b = append(b, '}')
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// appendSerdeString appends s as serde_json writes a string: '"' and '\'
// escaped, \b \t \n \f \r for those controls, \u00xx (lower-case hex) for
// the other controls below U+0020, everything else as UTF-8.
func appendSerdeString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// CodexHook is one command handler of a Codex hooks file whose trust Codex
// checks: its event, the positions of its group and of itself in the
// group (from 0, as in its key), the group's matcher (nil when it has
// none) and what Codex reads of it.
type CodexHook struct {
	Event        string
	Group, Index int
	Matcher      *string
	Handler      CodexHandler
}

// Key returns the hook's key in [hooks.state], for the file source (see
// CodexHookKey).
func (h CodexHook) Key(source string) string {
	return CodexHookKey(source, h.Event, h.Group, h.Index)
}

// Hash returns the hook's trusted_hash (see CodexHookHash).
func (h CodexHook) Hash() (string, error) { return CodexHookHash(h.Event, h.Matcher, h.Handler) }

// CodexHooksOf returns the command handlers of the Codex hooks.json raw
// whose trust Codex checks, in the file's order: those of a group whose
// matcher Codex can use (a group whose matcher is not a regular
// expression is skipped, as Codex skips it), with a command that is not
// blank. A file Codex refuses (CheckCodexHooksFile) is an error.
func CodexHooksOf(raw []byte) ([]CodexHook, error) {
	if err := CheckCodexHooksFile(raw); err != nil {
		return nil, err
	}
	root, _ := rawjson.Members(TrimBOM(raw))
	h, ok := rawjson.Find(root, "hooks")
	if !ok || string(h.Value) == "null" {
		return nil, nil
	}
	events, _ := rawjson.Members(h.Value)
	var out []CodexHook
	for _, ev := range events {
		groups, _ := rawjson.ElementsTrusted(ev.Value)
		for gi, g := range groups {
			gm, _ := rawjson.Members(g)
			var matcher *string
			if m, ok := rawjson.Find(gm, "matcher"); ok && string(m.Value) != "null" {
				s := string(rawjson.AppendExactUnquote(nil, m.Value))
				matcher = &s
			}
			if matcher != nil && codexHookEvents[ev.Key].matcher && !CodexMatcherValid(*matcher) {
				continue
			}
			hs, _ := rawjson.Find(gm, "hooks")
			handlers, _ := rawjson.ElementsTrusted(hs.Value)
			for hi, hd := range handlers {
				hm, _ := rawjson.Members(hd)
				if stringMember(hm, "type") != "command" {
					continue
				}
				c, err := codexHandlerOf(hm)
				if err != nil {
					return nil, fmt.Errorf("codex hooks.json: hooks.%s[%d].hooks[%d]: %w", ev.Key, gi, hi, err)
				}
				if strings.TrimSpace(c.effectiveCommand()) == "" {
					continue // Codex skips it with a warning
				}
				out = append(out, CodexHook{Event: ev.Key, Group: gi, Index: hi, Matcher: matcher, Handler: c})
			}
		}
	}
	return out, nil
}

// codexHandlerOf reads the members Codex reads of a command handler whose
// types CheckCodexHooksFile has checked.
func codexHandlerOf(hm []rawjson.Member) (CodexHandler, error) {
	c := CodexHandler{Command: stringMember(hm, "command")}
	optString := func(k string) *string {
		m, ok := rawjson.Find(hm, k)
		if !ok || string(m.Value) == "null" {
			return nil
		}
		s := string(rawjson.AppendExactUnquote(nil, m.Value))
		return &s
	}
	optUint := func(k string) (*uint64, error) {
		m, ok := rawjson.Find(hm, k)
		if !ok || string(m.Value) == "null" {
			return nil, nil
		}
		n, err := strconv.ParseUint(string(m.Value), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: must be a whole number, 0 or more", k)
		}
		return &n, nil
	}
	c.CommandWindows = optString("commandWindows")
	if c.CommandWindows == nil {
		c.CommandWindows = optString("command_windows")
	}
	c.StatusMessage = optString("statusMessage")
	var err error
	if c.Timeout, err = optUint("timeout"); err != nil {
		return c, err
	}
	if c.AdditionalContextLimit, err = optUint("additionalContextLimit"); err != nil {
		return c, err
	}
	if m, ok := rawjson.Find(hm, "async"); ok {
		c.Async = string(m.Value) == "true"
	}
	for _, s := range []string{c.Command, c.effectiveCommand()} {
		if !utf8.ValidString(s) {
			return c, fmt.Errorf("command: not valid UTF-8")
		}
	}
	return c, nil
}

// CodexMatcherUsed reports whether Codex reads a group's matcher on
// event (and skips the group when the matcher is not valid).
func CodexMatcherUsed(event string) bool { return codexHookEvents[event].matcher }
