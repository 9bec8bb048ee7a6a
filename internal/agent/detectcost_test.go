package agent

import (
	"testing"

	"github.com/gohooks/hook/internal/rawjson"
)

// BenchmarkDetectMembers times the detection every hook call makes, on a
// 300-byte Claude Code PreToolUse payload and a Codex one: it allocates
// nothing when the strings it reads have no escapes.
func BenchmarkDetectMembers(b *testing.B) {
	payloads := map[string][]byte{
		"claude": []byte(`{"session_id":"5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d","transcript_path":"/home/dev/.claude/projects/-home-dev-acme/5d3f2c1a.jsonl","cwd":"/home/dev/acme-api","hook_event_name":"PreToolUse","tool_name":"mcp__probe__listen_here","tool_input":{"room":"Ops \"war room\""},"tool_use_id":"toolu_01"}`),
		"codex":  CodexFixtures()["pre-tool-use"],
	}
	for name, raw := range payloads {
		ms, err := rawjson.Members(raw)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				DetectMembers(ms)
			}
		})
	}
}

func TestDetectMembersAllocatesNothing(t *testing.T) {
	raw := []byte(`{"session_id":"s","transcript_path":"/home/dev/.claude/projects/-p/s.jsonl","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	ms, err := rawjson.Members(raw)
	if err != nil {
		t.Fatal(err)
	}
	var got Agent
	if n := testing.AllocsPerRun(100, func() { got = DetectMembers(ms) }); n != 0 {
		t.Errorf("DetectMembers allocated %v times per call", n)
	}
	if got != ClaudeCode {
		t.Errorf("DetectMembers = %v, want Claude Code", got)
	}
}
