package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gohooks/hook/internal/rawjson"
)

// CheckCodexHooksFile checks the contents of a Codex hooks.json for what
// makes Codex refuse the whole file or an event of it: the root may hold
// only "description" (a string or null) and "hooks" (an object); each
// member of "hooks" must be an event a hooks file may hold
// (CodexConfigEvent), holding an array of
// groups; each group an object with a "hooks" array (and optionally a
// "matcher" string); each handler an object with a "type" string and, for
// "command" handlers, a "command" string. Unknown members of groups and
// handlers are allowed: Codex ignores them.
func CheckCodexHooksFile(raw []byte) error {
	root, err := rawjson.Members(TrimBOM(raw))
	if err != nil {
		return fmt.Errorf("codex hooks.json: not one JSON object: %w", err)
	}
	for _, m := range root {
		switch m.Key {
		case "description":
			if m.Value[0] != '"' && string(m.Value) != "null" {
				return fmt.Errorf("codex hooks.json: description: must be a string or null, not %s", rawjson.KindName(m.Value))
			}
		case "hooks":
		default:
			return fmt.Errorf("codex hooks.json: %s: Codex refuses a file with root members other than description and hooks", m.Key)
		}
	}
	h, ok := rawjson.Find(root, "hooks")
	if !ok {
		return nil
	}
	events, err := rawjson.Members(h.Value)
	if err != nil {
		return fmt.Errorf("codex hooks.json: hooks: must be an object, not %s", rawjson.KindName(h.Value))
	}
	for _, ev := range events {
		if !CodexConfigEvent(ev.Key) {
			return fmt.Errorf("codex hooks.json: hooks.%s: Codex has no such event", ev.Key)
		}
		groups, ok := rawjson.ElementsTrusted(ev.Value)
		if !ok {
			return fmt.Errorf("codex hooks.json: hooks.%s: must be an array of groups, not %s", ev.Key, rawjson.KindName(ev.Value))
		}
		for i, g := range groups {
			where := fmt.Sprintf("hooks.%s[%d]", ev.Key, i)
			if err := checkCodexGroup(where, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkCodexGroup checks one {matcher, hooks} group of a Codex hooks.json.
func checkCodexGroup(where string, g []byte) error {
	ms, err := rawjson.Members(g)
	if err != nil {
		return fmt.Errorf("codex hooks.json: %s: must be an object, not %s", where, rawjson.KindName(g))
	}
	if m, ok := rawjson.Find(ms, "matcher"); ok && m.Value[0] != '"' && string(m.Value) != "null" {
		return fmt.Errorf("codex hooks.json: %s.matcher: must be a string, not %s", where, rawjson.KindName(m.Value))
	}
	hs, ok := rawjson.Find(ms, "hooks")
	if !ok {
		return fmt.Errorf("codex hooks.json: %s.hooks: required", where)
	}
	handlers, ok := rawjson.ElementsTrusted(hs.Value)
	if !ok {
		return fmt.Errorf("codex hooks.json: %s.hooks: must be an array, not %s", where, rawjson.KindName(hs.Value))
	}
	for j, hd := range handlers {
		at := fmt.Sprintf("%s.hooks[%d]", where, j)
		hm, err := rawjson.Members(hd)
		if err != nil {
			return fmt.Errorf("codex hooks.json: %s: must be an object, not %s", at, rawjson.KindName(hd))
		}
		typ := stringMember(hm, "type")
		switch typ {
		case "":
			return fmt.Errorf("codex hooks.json: %s.type: required, a string", at)
		case "command", "prompt", "agent", "mcp_tool":
		default:
			return fmt.Errorf("codex hooks.json: %s.type: %q is not a handler type of Codex (command, prompt, agent, mcp_tool)", at, typ)
		}
		if typ == "command" && stringMember(hm, "command") == "" {
			return fmt.Errorf("codex hooks.json: %s.command: a command handler needs a non-empty command string", at)
		}
		if err := checkCodexHandlerMembers(at, hm); err != nil {
			return err
		}
	}
	return nil
}

// checkCodexHandlerMembers checks the types of the handler members Codex
// reads: one of the wrong type makes it refuse the whole file. timeout
// and additionalContextLimit are whole numbers, 0 or more (Codex reads
// unsigned integers: 1.5 or -1 is refused); statusMessage and
// commandWindows (alias command_windows) are strings; async is true or
// false; each may be null but async. Codex reads no other spelling of
// them: timeoutSec, timeout_sec and status_message are ignored, as any
// unknown member is.
func checkCodexHandlerMembers(at string, hm []rawjson.Member) error {
	for _, m := range hm {
		v := string(m.Value)
		switch m.Key {
		case "timeout", "additionalContextLimit":
			if v == "null" {
				continue
			}
			if _, err := strconv.ParseUint(v, 10, 64); err != nil {
				return fmt.Errorf("codex hooks.json: %s.%s: must be a whole number, 0 or more, not %s", at, m.Key, v)
			}
		case "statusMessage", "commandWindows", "command_windows":
			if v != "null" && m.Value[0] != '"' {
				return fmt.Errorf("codex hooks.json: %s.%s: must be a string, not %s", at, m.Key, rawjson.KindName(m.Value))
			}
		case "async":
			if v != "true" && v != "false" {
				return fmt.Errorf("codex hooks.json: %s.async: must be true or false, not %s", at, rawjson.KindName(m.Value))
			}
		}
	}
	return nil
}

// CodexMatcherValid reports whether Codex can use the matcher m of a
// group: "" and "*" match everything, a matcher of letters, digits, "_"
// and "|" lists names, anything else must be a regular expression (Codex
// skips the whole group, with a warning, when it is not).
func CodexMatcherValid(m string) bool {
	if m == "" || m == "*" || strings.Trim(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_|") == "" {
		return true
	}
	_, err := regexp.Compile(m)
	return err == nil
}
