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
	// CopilotCLI is the GitHub Copilot CLI with its hooks configured
	// under PascalCase event names ("VS Code compatible"): Claude-shaped
	// payloads, served.
	CopilotCLI
	// CopilotCLICamel is the GitHub Copilot CLI with its hooks configured
	// under camelCase event names (preToolUse, …), and its
	// permissionRequest under either: payloads of its own shape
	// (sessionId, toolName, toolArgs), not served.
	CopilotCLICamel
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
	case CopilotCLICamel:
		return "GitHub Copilot CLI (camelCase hooks)"
	}
	return "an unknown agent"
}

// Served reports whether the library answers this agent's payloads:
// Claude Code, Codex and the GitHub Copilot CLI's PascalCase payloads. A
// hook that receives a payload of another agent must not answer it as if
// it were Claude Code.
func (a Agent) Served() bool { return a == ClaudeCode || a == Codex || a == CopilotCLI }

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

// copilotTools are the GitHub Copilot CLI's tool names for hook matching.
// Claude Code cannot send them: its built-in tools are named in
// PascalCase (Bash, Edit) and its MCP tools mcp__<server>__<tool>.
func copilotTools(s string) bool {
	switch s {
	case "bash", "powershell", "create", "edit", "view", "glob", "grep", "task", "web_fetch", "ask_user":
		return true
	}
	return false
}

// copilotEvents are the events only GitHub Copilot CLI's VS Code
// compatible format sends under a PascalCase name.
func copilotEvents(s string) bool { return s == "ErrorOccurred" }

// Detect tells which agent sent the hook payload raw, by the members each
// one sends (a leading UTF-8 byte order mark is ignored). It never fails:
// a payload that is not a JSON object, or that no agent below would send,
// is Unknown.
//
// Another agent is named only on evidence Claude Code cannot send, so
// that a member Claude Code adds one day (a timestamp, turn_id,
// mcp_context, workspace_roots, …) never turns a hook off:
//
//   - Claude Code: a transcript where Claude Code keeps one
//     (<config>/projects/<project>/<session>.jsonl) with a PascalCase
//     event, whatever else the payload holds.
//   - Cursor: cursor_version, or a camelCase hook_event_name such as
//     "preToolUse" (Claude Code's events are all PascalCase).
//   - GitHub Copilot CLI, camelCase configuration (CopilotCLICamel): its
//     camelCase payload (sessionId, toolName, toolArgs or hookName in
//     place of session_id, which Claude Code always sends).
//   - GitHub Copilot CLI, PascalCase configuration (CopilotCLI): a
//     lower-case Copilot tool name (bash, view, …); an event only Copilot
//     sends (ErrorOccurred); a transcript under .copilot/; or a
//     PostToolUse with a tool_result and without the tool_response
//     Claude Code always sends there; or a Write, Edit or Read call whose
//     tool_input has Copilot's path and not the file_path Claude Code's
//     always has.
//   - Gemini CLI: one of its own events (BeforeTool, AfterAgent, …), one of
//     its tool names (run_shell_command, …), or a transcript under .gemini/.
//   - Codex: a transcript under .codex/sessions (rollout-*.jsonl).
//   - Unknown: no hook_event_name or no session_id.
//   - Claude Code: any other payload.
//
// An empty, null, missing or relative transcript_path says nothing (Claude
// Code's hosted modes send ""), so a Codex payload without a transcript is
// served as Claude Code's; docs/agents.md says what that changes.
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
	pascal := event != "" && event[0] >= 'A' && event[0] <= 'Z'
	transcript := transcriptOwner(str("transcript_path"))
	tool := str("tool_name")

	if transcript == ClaudeCode && pascal {
		return ClaudeCode
	}
	switch {
	case has("cursor_version"), event != "" && event[0] >= 'a' && event[0] <= 'z':
		return Cursor
	case !has("session_id") && (has("sessionId") || has("toolName") || has("toolArgs") || has("hookName")):
		return CopilotCLICamel
	case geminiEvents(event), geminiTools(tool):
		return GeminiCLI
	case copilotTools(tool), copilotEvents(event), event == "PostToolUse" && has("tool_result") && !has("tool_response"),
		copilotFileInput(ms, tool):
		return CopilotCLI
	}
	if transcript != Unknown && transcript != ClaudeCode {
		return transcript
	}
	if event == "" || !has("session_id") {
		return Unknown
	}
	return ClaudeCode
}

// transcriptOwner tells whose transcript the path p is, by where each
// agent keeps its transcripts: Claude Code <config>/projects/<project>/
// <session>.jsonl, Codex $CODEX_HOME/sessions/…/rollout-*.jsonl, Gemini
// CLI ~/.gemini/tmp/…/chats/session-*.json, Copilot CLI
// ~/.copilot/session-state/…. Unknown for any other path, an empty one or
// none. Backslashes are read as Windows separators.
func transcriptOwner(p string) Agent {
	if p == "" {
		return Unknown
	}
	p = strings.ReplaceAll(p, `\`, "/")
	base := path.Base(p)
	dir := path.Dir(p)
	switch {
	case strings.HasSuffix(base, ".jsonl") && path.Base(path.Dir(dir)) == "projects":
		return ClaudeCode
	case strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl"),
		strings.Contains(p, "/.codex/sessions/"):
		return Codex
	case strings.Contains(p, "/.gemini/tmp/"),
		path.Base(dir) == "chats" && strings.HasPrefix(base, "session-") && strings.HasSuffix(base, ".json"):
		return GeminiCLI
	case strings.Contains(p, "/.copilot/session-state/"):
		return CopilotCLI
	}
	return Unknown
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

var (
	filePathKey = []string{"file_path"}
	pathKey     = []string{"path"}
)

// copilotFileInput reports whether the call of tool in ms is a Copilot
// CLI file tool under Claude Code's name (create as Write, edit as Edit,
// view as Read): its tool_input names the file "path", where Claude
// Code's tools always send "file_path". It allocates nothing.
func copilotFileInput(ms []rawjson.Member, tool string) bool {
	switch tool {
	case "Write", "Edit", "Read":
	default:
		return false
	}
	in, ok := rawjson.Find(ms, "tool_input")
	if !ok || len(in.Value) == 0 || in.Value[0] != '{' {
		return false
	}
	if found, ok := rawjson.HasKey(in.Value, filePathKey); !ok || found {
		return false
	}
	found, ok := rawjson.HasKey(in.Value, pathKey)
	return ok && found
}

// CopilotMembers returns the members of a GitHub Copilot CLI payload
// (PascalCase configuration) as the typed events of Claude Code read
// them: its PostToolUse result, tool_result ({result_type,
// text_result_for_llm}), is also tool_response when the payload has none,
// so that a hook's PostToolUse.ToolResponse holds it. The payload's bytes
// are not changed, and neither is ms: the added member is appended to a
// copy.
func CopilotMembers(ms []rawjson.Member) []rawjson.Member {
	res, ok := rawjson.Find(ms, "tool_result")
	if !ok {
		return ms
	}
	if _, ok := rawjson.Find(ms, "tool_response"); ok {
		return ms
	}
	name := []byte(`"tool_response"`)
	return append(ms[:len(ms):len(ms)], rawjson.Member{Key: "tool_response", Name: name[:len(name):len(name)], Value: res.Value[:len(res.Value):len(res.Value)]})
}
