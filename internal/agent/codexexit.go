package agent

import (
	"strings"
	"unicode"
)

// CodexBlocksOnExit2 reports whether Codex CodexVersion blocks on event
// when a hook exits 2 with a reason on stderr: PreToolUse (the call does
// not run), PermissionRequest (the request is denied), PostToolUse (the
// reason goes to the model as feedback), UserPromptSubmit (the prompt is
// stopped), Stop and SubagentStop (the reason is the continuation
// prompt). On every other event Codex reports exit 2 as a failed hook and
// goes on, as for any other exit code. (Codex's engine: one branch for
// exit code 2 in the result parser of each of these events, and
// "<event> hook exited with code 2 but did not write …" when stderr is
// empty.)
func CodexBlocksOnExit2(event string) bool {
	switch event {
	case "PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop":
		return true
	}
	return false
}

// CheckCodexText checks a plain-text answer to event (stdout that is not
// a JSON object) against what Codex does with it. Codex reads plain
// stdout as context for the model on SessionStart, SubagentStart and
// UserPromptSubmit only, and only when, after leading white space, it
// starts with neither "{" nor "[" (otherwise it takes it for broken JSON
// and reports the hook Failed). On every other event it drops the text
// without a word. The error is a *CodexError.
func CheckCodexText(event string, text []byte) error {
	s := strings.TrimLeftFunc(string(text), unicode.IsSpace)
	if s == "" {
		return nil
	}
	switch event {
	case "SessionStart", "SubagentStart", "UserPromptSubmit":
	default:
		return &CodexError{Event: event, Rule: "Codex ignores plain text on " + event + " (it reads plain stdout as context only on SessionStart, SubagentStart and UserPromptSubmit): answer with JSON fields Codex reads, or nothing"}
	}
	if s[0] == '{' || s[0] == '[' {
		return &CodexError{Event: event, Rule: "Codex takes plain text starting with " + s[:1] + " for broken JSON and reports the hook Failed: start the text with something else"}
	}
	return nil
}
