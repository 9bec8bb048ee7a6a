package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
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
	filepath.Join("testdata", "copilotcamel"):         CopilotCLICamel,
	filepath.Join("testdata", "unknown"):              Unknown,
	filepath.Join("testdata", "neutral"):              ClaudeCode,
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
		{"turn_id without a Codex transcript is neutral", `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","turn_id":"u","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_1"}`, ClaudeCode},
		{"codex turn_id with its transcript", `{"session_id":"s","transcript_path":"/h/.codex/sessions/2026/12/01/rollout-1.jsonl","cwd":"/p","hook_event_name":"PreToolUse","turn_id":"u","tool_name":"Bash","tool_input":{"command":"ls"}}`, Codex},
		{"null transcript is neutral", `{"session_id":"s","transcript_path":null,"cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}`, ClaudeCode},
		{"codex windows rollout", `{"session_id":"s","transcript_path":"C:\\Users\\d\\.codex\\sessions\\2026\\12\\01\\rollout-2026-12-01T10-00-00-s.jsonl","cwd":"C:\\p","hook_event_name":"SessionStart","model":"m","permission_mode":"default","source":"startup"}`, Codex},
		{"a rollout-*.jsonl transcript is Codex's", `{"session_id":"s","transcript_path":"/x/rollout-1.jsonl","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`, Codex},
		{"workspace_roots alone is neutral", `{"hook_event_name":"PreToolUse","session_id":"s","workspace_roots":["/p"]}`, ClaudeCode},
		{"cursor ids with a camel event", `{"conversation_id":"c","generation_id":"g","hook_event_name":"stop"}`, Cursor},
		{"cursor_version", `{"hook_event_name":"PreToolUse","session_id":"s","cursor_version":"2.1.46"}`, Cursor},
		{"cursor camel event", `{"hook_event_name":"postToolUse","session_id":"s"}`, Cursor},
		{"gemini event", `{"hook_event_name":"AfterAgent","session_id":"s"}`, GeminiCLI},
		{"gemini tool under claude name", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, GeminiCLI},
		{"mcp_context alone is neutral", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"mcp__db__query","tool_input":{},"mcp_context":{}}`, ClaudeCode},
		{"gemini transcript", `{"hook_event_name":"SessionStart","session_id":"s","transcript_path":"/h/.gemini/tmp/4f/chats/session-1.json","source":"startup"}`, GeminiCLI},
		{"copilot camel", `{"sessionId":"s","timestamp":1,"cwd":"/p","toolName":"bash","toolArgs":"{}"}`, CopilotCLICamel},
		{"copilot tool_result without tool_response", `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{},"tool_result":{"result_type":"success","text_result_for_llm":""}}`, CopilotCLI},
		{"tool_result beside tool_response is neutral", `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{},"tool_response":{},"tool_result":{}}`, ClaudeCode},
		{"copilot create as Write", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Write","tool_input":{"path":"a.txt","file_text":"hi"}}`, CopilotCLI},
		{"copilot edit as Edit", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Edit","tool_input":{"path":"a.txt","old_str":"a","new_str":"b"}}`, CopilotCLI},
		{"path beside file_path is neutral", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Write","tool_input":{"file_path":"/a","path":"a","content":""}}`, ClaudeCode},
		{"path on another tool is neutral", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"mcp__fs__write","tool_input":{"path":"a"}}`, ClaudeCode},
		{"tool_result on another event is neutral", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{},"tool_result":{}}`, ClaudeCode},
		{"sessionId beside session_id is neutral", `{"sessionId":"s","session_id":"s","hook_event_name":"Stop","toolName":"x"}`, ClaudeCode},
		{"copilot vscode tool", `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","tool_name":"bash","tool_input":{}}`, CopilotCLI},
		{"copilot transcript", `{"hook_event_name":"Stop","session_id":"s","timestamp":"2026-01-01T00:00:00Z","transcript_path":"/h/.copilot/session-state/s/events.jsonl"}`, CopilotCLI},
		{"a timestamp alone is neutral", `{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","source":"new"}`, ClaudeCode},
		{"a claude transcript wins over another agent's members", `{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","hook_event_name":"PreToolUse","tool_name":"bash","workspace_roots":[]}`, ClaudeCode},
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
	for a := Unknown; a <= CopilotCLICamel; a++ {
		assert.False(t, seen[a.String()], "%d has a name of its own", a)
		seen[a.String()] = true
	}
	assert.Equal(t, "an unknown agent", Agent(200).String())
	assert.True(t, ClaudeCode.Served())
	assert.True(t, Codex.Served())
	assert.True(t, CopilotCLI.Served())
	for _, a := range []Agent{Unknown, Cursor, GeminiCLI, CopilotCLICamel} {
		assert.False(t, a.Served(), a.String())
	}
}

// TestDetectClaudeCodeWithNewMembers is the whole table: every payload
// the real Claude Code sent (hooktest/fixtures and its captured runs), with
// any member another agent sends added to it (one at a time, and each
// agent's members all at once), under every form of transcript_path Claude
// Code may send or leave out, stays Claude Code's, so that no hook turns
// itself off after a client update. The only members left out are the ones
// named after another product (cursor_version).
func TestDetectClaudeCodeWithNewMembers(t *testing.T) {
	var names []string
	for _, glob := range []string{"*.json", filepath.Join("captured", "*", "*.json")} {
		more, err := filepath.Glob(filepath.Join("..", "..", "hooktest", "fixtures", glob))
		require.NoError(t, err)
		names = append(names, more...)
	}
	extras, sets := otherAgentsMembers(t)
	require.GreaterOrEqual(t, len(extras), 30, "members of the other agents' payloads")
	transcripts := []string{
		"", // as the fixture has it
		`"transcript_path":""`,
		`"transcript_path":null`,
		`"transcript_path":"t.jsonl"`,
		`"transcript_path":"/tmp/t.jsonl"`,
		`"transcript_path":"C:\\Users\\dev\\.claude\\projects\\C--acme\\5d3f.jsonl"`,
		`"transcript_path":7`,
		"-", // none
	}
	checked := 0
	for _, name := range names {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		ms, err := rawjson.Members(bytes.TrimSpace(raw))
		if err != nil || stringMember(ms, "hook_event_name") == "" {
			continue // a captured answer, not a payload
		}
		require.Equal(t, ClaudeCode.String(), Detect(raw).String(), name)
		for _, tr := range transcripts {
			base := withTranscript(ms, tr)
			for _, add := range append(extras, sets...) {
				payload := appendMembers(base, add)
				if !assert.Equal(t, ClaudeCode.String(), Detect(payload).String(), "%s\n%s", name, payload) {
					return
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 50000, "payloads checked")
	t.Logf("%d payloads checked", checked)
}

// otherAgentsMembers returns the top-level members of every other agent's
// payload in this package's testdata, each as `"name":value` (one per name,
// the first value seen), and one list per payload of all its members at
// once, less those that name another product.
func otherAgentsMembers(t *testing.T) (single, sets [][]rawjson.Member) {
	t.Helper()
	seen := map[string]bool{}
	var globs []string
	for _, d := range []string{"cursor", "gemini", "copilot", "copilotcamel", "neutral"} {
		globs = append(globs, filepath.Join("testdata", d, "*.json"))
	}
	globs = append(globs, filepath.Join("codexfixtures", "*.json"))
	for _, g := range globs {
		names, err := filepath.Glob(g)
		require.NoError(t, err)
		for _, name := range names {
			raw, err := os.ReadFile(name)
			require.NoError(t, err)
			ms, err := rawjson.Members(TrimBOM(raw))
			require.NoError(t, err, name)
			var all []rawjson.Member
			for _, m := range ms {
				if m.Key == "cursor_version" || m.Key == "hook_event_name" || m.Key == "tool_name" || m.Key == "transcript_path" {
					continue // named after a product, or read as a value above
				}
				all = append(all, m)
				if !seen[m.Key] {
					seen[m.Key] = true
					single = append(single, []rawjson.Member{m})
				}
			}
			sets = append(sets, all)
		}
	}
	return single, sets
}

// withTranscript returns ms with transcript_path as tr says: "" keeps it,
// "-" drops it, anything else replaces it with that member.
func withTranscript(ms []rawjson.Member, tr string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	put := func(s string) {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
		n++
	}
	for _, m := range ms {
		if m.Key == "transcript_path" && tr != "" {
			continue
		}
		put(string(m.Name) + ":" + string(m.Value))
	}
	if tr != "" && tr != "-" {
		put(tr)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// appendMembers returns the object obj with the members add that it does
// not have already.
func appendMembers(obj []byte, add []rawjson.Member) []byte {
	have, _ := rawjson.Members(obj)
	out := append([]byte{}, obj[:len(obj)-1]...)
	for _, m := range add {
		if _, dup := rawjson.Find(have, m.Key); dup {
			continue
		}
		out = append(out, ',')
		out = append(out, m.Name...)
		out = append(out, ':')
		out = append(out, m.Value...)
	}
	return append(out, '}')
}

// TestCopilotMembers: a tool_result without a tool_response is also the
// tool_response, in a new slice that leaves the payload's members as
// they were; a payload with both, or without tool_result, is returned
// as it is.
func TestCopilotMembers(t *testing.T) {
	members := func(s string) []rawjson.Member {
		ms, err := rawjson.Members([]byte(s))
		require.NoError(t, err)
		return ms
	}
	ms := members(`{"hook_event_name":"PostToolUse","tool_result":{"result_type":"success","text_result_for_llm":"ok"},"tool_name":"Bash"}`)
	ms = append(ms[:len(ms):len(ms)], rawjson.Member{})[:len(ms)] // room behind ms that an append would take
	before := slices.Clone(ms[:cap(ms)])
	got := CopilotMembers(ms)
	require.Len(t, got, len(ms)+1)
	assert.Equal(t, before, ms[:cap(ms)], "the payload's members and the room behind them are unchanged")
	resp, ok := rawjson.Find(got, "tool_response")
	require.True(t, ok)
	assert.Equal(t, `{"result_type":"success","text_result_for_llm":"ok"}`, string(resp.Value))
	assert.Equal(t, `"tool_response"`, string(resp.Name))
	res, _ := rawjson.Find(got, "tool_result")
	assert.Equal(t, string(res.Value), string(resp.Value))

	for _, s := range []string{
		`{"hook_event_name":"PostToolUse","tool_result":{},"tool_response":{"a":1}}`,
		`{"hook_event_name":"PreToolUse","tool_input":{}}`,
		`{}`,
	} {
		ms := members(s)
		assert.Equal(t, ms, CopilotMembers(ms), s)
	}
}
