package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureDirs maps each folder of payloads to the agent that sends them:
// testdata/ holds the other agents' payloads (see testdata/README.md), and
// Claude Code's are the library's own fixtures, captured from the real
// client.
var fixtureDirs = map[string]Agent{
	filepath.Join("..", "..", "hooktest", "fixtures"): ClaudeCode,
	filepath.Join("codexfixtures"):                    Codex,
	filepath.Join("testdata", "cursor"):               Cursor,
	filepath.Join("testdata", "gemini"):               GeminiCLI,
	filepath.Join("testdata", "copilot"):              CopilotCLI,
	filepath.Join("testdata", "unknown"):              Unknown,
}

func TestDetectFixtures(t *testing.T) {
	for dir, want := range fixtureDirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.json"))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(names), 5, "fixtures in %s", dir)
		for _, name := range names {
			raw, err := os.ReadFile(name)
			require.NoError(t, err)
			assert.Equal(t, want.String(), Detect(raw).String(), name)
		}
	}
}

// TestDetectBOM checks that the byte order mark Cursor writes changes
// nothing, for every agent's payload.
func TestDetectBOM(t *testing.T) {
	for dir, want := range fixtureDirs {
		if want == Unknown {
			continue
		}
		names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, name := range names {
			raw, err := os.ReadFile(name)
			require.NoError(t, err)
			withBOM := append([]byte{0xEF, 0xBB, 0xBF}, TrimBOM(raw)...)
			assert.Equal(t, want, Detect(withBOM), name)
		}
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "cursor", "pretooluse-shell-bom.json"))
	require.NoError(t, err)
	require.Equal(t, []byte{0xEF, 0xBB, 0xBF}, raw[:3], "the fixture keeps Cursor's BOM")
}

func TestDetectSignals(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		want    Agent
	}{
		{"claude pretooluse", `{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`, ClaudeCode},
		{"claude messagedisplay has turn_id", `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"MessageDisplay","turn_id":"u","message_id":"m","index":0,"final":true,"delta":"x"}`, ClaudeCode},
		{"codex turn_id", `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","turn_id":"u","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_1"}`, Codex},
		{"codex interrupt", `{"session_id":"s","transcript_path":null,"cwd":"/p","hook_event_name":"Interrupt","model":"m","permission_mode":"default","turn_id":"u"}`, Codex},
		{"codex null transcript", `{"session_id":"s","transcript_path":null,"cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}`, Codex},
		{"codex windows rollout", `{"session_id":"s","transcript_path":"C:\\Users\\d\\.codex\\sessions\\2026\\12\\01\\rollout-2026-12-01T10-00-00-s.jsonl","cwd":"C:\\p","hook_event_name":"SessionStart","model":"m","permission_mode":"default","source":"startup"}`, Codex},
		{"a rollout-*.jsonl transcript is Codex's", `{"session_id":"s","transcript_path":"/x/rollout-1.jsonl","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`, Codex},
		{"cursor workspace_roots only", `{"hook_event_name":"PreToolUse","session_id":"s","workspace_roots":["/p"]}`, Cursor},
		{"cursor ids", `{"conversation_id":"c","generation_id":"g","hook_event_name":"stop"}`, Cursor},
		{"cursor camel event", `{"hook_event_name":"postToolUse","session_id":"s"}`, Cursor},
		{"gemini event", `{"hook_event_name":"AfterAgent","session_id":"s"}`, GeminiCLI},
		{"gemini tool under claude name", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, GeminiCLI},
		{"copilot camel", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"{}"}`, CopilotCLI},
		{"copilot vscode tool", `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","tool_name":"bash","tool_input":{}}`, CopilotCLI},
		{"copilot vscode session start", `{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","source":"new"}`, CopilotCLI},
		{"gemini session start", `{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","transcript_path":"/t.json","source":"startup"}`, GeminiCLI},
		{"not an object", `"PreToolUse"`, Unknown},
		{"duplicate names", `{"hook_event_name":"PreToolUse","hook_event_name":"Stop","session_id":"s"}`, Unknown},
		{"trailing garbage", `{"hook_event_name":"PreToolUse","session_id":"s"} x`, Unknown},
		{"event not a string", `{"hook_event_name":1,"session_id":"s"}`, Unknown},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want.String(), Detect([]byte(tt.payload)).String(), tt.name)
	}
}

func TestAgentNames(t *testing.T) {
	seen := map[string]bool{}
	for a := Unknown; a <= CopilotCLI; a++ {
		assert.False(t, seen[a.String()], "%d has a name of its own", a)
		seen[a.String()] = true
	}
	assert.Equal(t, "an unknown agent", Agent(200).String())
	assert.True(t, ClaudeCode.Served())
	assert.True(t, Codex.Served())
	for _, a := range []Agent{Unknown, Cursor, GeminiCLI, CopilotCLI} {
		assert.False(t, a.Served(), a.String())
	}
}

// TestDetectClaudeCodeWithNewMembers: members Claude Code may add one day,
// among them the ones that mark other agents' payloads where the
// transcript does not say whose it is (timestamp, tool_result), leave
// every Claude Code payload Claude Code's, so that no hook turns itself
// off after a client update. Windows spells the transcript's path with
// backslashes.
func TestDetectClaudeCodeWithNewMembers(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "..", "hooktest", "fixtures", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		raw = bytes.TrimSpace(raw)
		for _, extra := range []string{`"timestamp":"2026-12-01T10:00:00Z"`, `"tool_result":{}`, `"stop_reason":"end_turn"`, `"error_context":{}`} {
			more := append(append(append([]byte{}, raw[:len(raw)-1]...), ',', ' '), extra+"}"...)
			assert.Equal(t, ClaudeCode.String(), Detect(more).String(), "%s with %s", name, extra)
		}
	}
	win := []byte(`{"session_id":"s","transcript_path":"C:\\Users\\dev\\.claude\\projects\\C--acme\\5d3f.jsonl","cwd":"C:\\acme","hook_event_name":"Stop","timestamp":"x"}`)
	assert.Equal(t, ClaudeCode.String(), Detect(win).String())
}
