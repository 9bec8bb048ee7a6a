// Package agent tells which coding agent sent a hook payload and checks
// an answer against the rules of the agent that will read it.
//
// Claude Code's types are the library's API. OpenAI Codex speaks a close
// dialect of the same wire format (same event and field names, narrower
// answers); Cursor, Gemini CLI and GitHub Copilot CLI can run a hook
// written for Claude Code but send payloads of their own, which the
// library recognises in order to refuse them deliberately instead of
// answering them with silence.
//
// Everything here is a pure function over bytes: [Detect] reads a
// payload as the agent wrote it, [CheckCodexAnswer] an encoded answer, so
// that the read and the write of a hook can call them without this package
// knowing the library's types. What each agent sends, and where it was
// read, is in docs/agents.md and testdata/README.md.
package agent

import (
	"bytes"
	"path"
	"strings"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
)

// Agent is a coding agent that runs hooks.
type Agent uint8

// The agents Detect tells apart.
const (
	// Unknown is a payload that no known agent sends, or that is not a
	// JSON object.
	Unknown Agent = iota
	// ClaudeCode is Anthropic's Claude Code, the library's own dialect.
	ClaudeCode
	// Codex is the OpenAI Codex CLI.
	Codex
	// Cursor is the Cursor editor's agent, which also runs the hooks of
	// .claude/settings*.json with its own payloads.
	Cursor
	// GeminiCLI is Google's Gemini CLI.
	GeminiCLI
	// CopilotCLI is the GitHub Copilot CLI.
	CopilotCLI
)

// String returns the agent's product name, as a message to a user names
// it.
func (a Agent) String() string {
	switch a {
	case ClaudeCode:
		return "Claude Code"
	case Codex:
		return "Codex"
	case Cursor:
		return "Cursor"
	case GeminiCLI:
		return "Gemini CLI"
	case CopilotCLI:
		return "GitHub Copilot CLI"
	}
	return "an unknown agent"
}

// Served reports whether the library answers this agent's payloads:
// Claude Code and Codex. A hook that receives a payload of another agent
// must not answer it as if it were Claude Code.
func (a Agent) Served() bool { return a == ClaudeCode || a == Codex }

// bom is the UTF-8 byte order mark that Cursor writes before its payloads.
var bom = []byte{0xEF, 0xBB, 0xBF}

// TrimBOM returns raw without a leading UTF-8 byte order mark.
func TrimBOM(raw []byte) []byte { return bytes.TrimPrefix(raw, bom) }

// geminiEvents are the events only Gemini CLI sends.
func geminiEvents(s string) bool {
	switch s {
	case "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress":
		return true
	}
	return false
}

// geminiTools are Gemini CLI's built-in tool names (its docs' tools
// reference); no other agent uses them.
func geminiTools(s string) bool {
	switch s {
	case "run_shell_command", "write_file", "read_file", "replace", "read_many_files", "list_directory", "search_file_content", "google_web_search", "save_memory", "write_todos":
		return true
	}
	return false
}

// sharedWithGemini are the events both Gemini CLI and Copilot CLI's VS
// Code compatible format send under the same name.
func sharedWithGemini(s string) bool {
	switch s {
	case "SessionStart", "SessionEnd", "Notification":
		return true
	}
	return false
}

// copilotTools are the GitHub Copilot CLI's tool names for hook matching.
func copilotTools(s string) bool {
	switch s {
	case "bash", "powershell", "create", "edit", "view", "glob", "grep", "task", "web_fetch", "ask_user":
		return true
	}
	return false
}

// codexTurnEvents are the Codex events whose payload carries turn_id
// (its .command.input schemas require it); Claude Code sends turn_id only
// on MessageDisplay.
func codexTurnEvents(s string) bool {
	switch s {
	case "PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Interrupt":
		return true
	}
	return false
}

// Detect tells which agent sent the hook payload raw, by the members each
// one sends (a leading UTF-8 byte order mark is ignored). It never fails:
// a payload that is not a JSON object, or that no agent below would send,
// is Unknown.
//
//   - Cursor: workspace_roots, cursor_version, or conversation_id with
//     generation_id; or a camelCase hook_event_name such as "preToolUse".
//   - GitHub Copilot CLI: its camelCase payload (sessionId, toolName,
//     toolArgs); or, in its VS Code compatible format, a timestamp that is
//     not Gemini CLI's.
//   - Gemini CLI: one of its own events (BeforeTool, AfterAgent, …), one of
//     its tool names (run_shell_command, …), mcp_context, or a timestamp
//     with transcript_path on SessionStart, SessionEnd or Notification.
//   - Codex: turn_id on a Codex turn event, a null transcript_path, or a
//     transcript under .codex/sessions (rollout-*.jsonl).
//   - Claude Code: any other payload with hook_event_name and session_id.
func Detect(raw []byte) Agent {
	ms, err := rawjson.Members(TrimBOM(raw))
	if err != nil {
		return Unknown
	}
	return DetectMembers(ms)
}

// DetectMembers is [Detect] over the top-level members of a payload
// already split, as a hook's read splits it.
func DetectMembers(ms []rawjson.Member) Agent {
	has := func(k string) bool { _, ok := rawjson.Find(ms, k); return ok }
	str := func(k string) string { return peekString(ms, k) }
	event := str("hook_event_name")

	switch {
	case has("workspace_roots"), has("cursor_version"), has("conversation_id") && has("generation_id"):
		return Cursor
	case has("sessionId"), has("toolName"), has("toolArgs"):
		return CopilotCLI
	case geminiEvents(event), geminiTools(str("tool_name")), has("mcp_context"):
		return GeminiCLI
	case event != "" && event[0] >= 'a' && event[0] <= 'z':
		return Cursor
	}
	// A transcript where Claude Code keeps one (<config>/projects/<project>/
	// <session>.jsonl) names Claude Code whatever else the payload holds,
	// so that a member Claude Code adds one day (a timestamp, say) never
	// turns a hook off.
	if isClaudeTranscript(str("transcript_path")) && event != "" && event[0] >= 'A' && event[0] <= 'Z' {
		return ClaudeCode
	}
	if has("timestamp") { // Claude Code and Codex send none
		switch {
		case copilotTools(str("tool_name")), has("tool_result"), has("error_context"),
			has("stop_reason"), has("initial_prompt"):
			return CopilotCLI
		case sharedWithGemini(event) && has("transcript_path"):
			// Gemini CLI sends transcript_path on every event; Copilot's
			// VS Code format only on Stop, SubagentStop and PreCompact.
			return GeminiCLI
		}
		return CopilotCLI
	}
	if event == "" || !has("session_id") {
		return Unknown
	}
	if has("turn_id") && codexTurnEvents(event) {
		return Codex
	}
	if tp, ok := rawjson.Find(ms, "transcript_path"); ok {
		if string(tp.Value) == "null" {
			return Codex
		}
		if isCodexTranscript(str("transcript_path")) {
			return Codex
		}
	}
	return ClaudeCode
}

// isClaudeTranscript reports whether p is where Claude Code keeps a
// session's transcript: a .jsonl file in a folder under a projects folder.
func isClaudeTranscript(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	dir := path.Dir(p)
	return strings.HasSuffix(p, ".jsonl") && path.Base(path.Dir(dir)) == "projects"
}

// isCodexTranscript reports whether p is where Codex keeps a session's
// transcript: a rollout-*.jsonl file under a .codex/sessions folder.
func isCodexTranscript(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl") ||
		strings.Contains(p, "/.codex/sessions/")
}

// peekString is stringMember without a copy when the string has no
// escapes: the result shares the payload's bytes, so it must not outlive
// the call that reads it (DetectMembers runs on every hook call, before
// the handler, and allocates nothing this way).
func peekString(ms []rawjson.Member, k string) string {
	m, ok := rawjson.Find(ms, k)
	if !ok || len(m.Value) < 2 || m.Value[0] != '"' {
		return ""
	}
	v := m.Value[1 : len(m.Value)-1]
	if len(v) == 0 {
		return ""
	}
	if bytes.IndexByte(v, '\\') >= 0 {
		return string(rawjson.AppendExactUnquote(nil, m.Value))
	}
	return unsafe.String(&v[0], len(v))
}

// stringMember returns the string value of the member k of ms, or "" when
// it is missing or not a string.
func stringMember(ms []rawjson.Member, k string) string {
	m, ok := rawjson.Find(ms, k)
	if !ok || len(m.Value) == 0 || m.Value[0] != '"' {
		return ""
	}
	return string(rawjson.AppendExactUnquote(nil, m.Value))
}
