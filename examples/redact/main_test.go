package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"OPENAI=sk-proj-abc123XYZ_-9":                                                 "OPENAI=[redacted]",
		"sk-live-4eC39HqLyjWDarjtT1zdp7dc.":                                           "[redacted].",
		"token ghp_" + strings.Repeat("a1B2", 9) + " end":                             "token [redacted] end",
		"github_pat_11ABCDEFG0123456789_abcdefghij":                                   "[redacted]",
		"aws AKIAIOSFODNN7EXAMPLE x":                                                  "aws [redacted] x",
		"slack xoxb-1234567890-abcdef":                                                "slack [redacted]",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nafter": "[redacted]\nafter",
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn (cut)":                           "[redacted]",
		"sk-live- is a prefix, AKIA is a word, ghp_short":                             "sk-live- is a prefix, AKIA is a word, ghp_short",
	} {
		assert.Equal(t, want, Redact(in), in)
	}
}

func TestMCPResultIsRedactedBlockByBlock(t *testing.T) {
	payload, err := os.ReadFile("testdata/mcp-vault.json")
	require.NoError(t, err)
	rec := hooktest.Record(Handler(), payload)
	require.NoError(t, rec.Err())
	assert.Equal(t, `[{"type":"text","text":"key: [redacted] (rotated 2026-11-02)","annotations":{"audience":["assistant"]}},{"type":"text","text":"owner: payments team"}]`,
		string(rec.HookSpecificOutput["updatedToolOutput"]))
}

func TestBuiltInResultsKeepEveryOtherMember(t *testing.T) {
	for _, c := range []struct{ tool, response, want string }{
		{"Bash", `{"stdout":"KEY=sk-live-9f3a4b5c","stderr":"warn: caf\u00e9","interrupted":false,"isImage":false,"noOutputExpected":false,"x_future":{"n":12345678901234567890}}`,
			`{"stdout":"KEY=[redacted]","stderr":"warn: caf\u00e9","interrupted":false,"isImage":false,"noOutputExpected":false,"x_future":{"n":12345678901234567890}}`},
		{"PowerShell", `{"stdout":"","stderr":"AKIAIOSFODNN7EXAMPLE","interrupted":false}`,
			`{"stdout":"","stderr":"[redacted]","interrupted":false}`},
		{"Read", `{"type":"text","file":{"filePath":".env","content":"1\tKEY=sk-test-abcdef12\n","numLines":1,"startLine":1,"totalLines":1}}`,
			`{"type":"text","file":{"filePath":".env","content":"1\tKEY=[redacted]\n","numLines":1,"startLine":1,"totalLines":1}}`},
		{"Grep", `{"mode":"content","numFiles":1,"filenames":[],"content":"a.env:KEY=sk-live-123456789","numLines":1}`,
			`{"mode":"content","numFiles":1,"filenames":[],"content":"a.env:KEY=[redacted]","numLines":1}`},
		{"WebFetch", `{"bytes":10,"code":200,"codeText":"OK","result":"the key is xoxb-1234567890-abcdef","durationMs":5,"url":"https://x"}`,
			`{"bytes":10,"code":200,"codeText":"OK","result":"the key is [redacted]","durationMs":5,"url":"https://x"}`},
		{"mcp__db__query", `"rows: 1, token ghp_` + strings.Repeat("a1B2", 9) + `"`, `"rows: 1, token [redacted]"`},
	} {
		rec := hooktest.Record(Handler(), hooktest.NewPostToolUse(c.tool, `{}`, c.response))
		require.NoError(t, rec.Err(), c.tool)
		assert.Equal(t, c.want, string(rec.HookSpecificOutput["updatedToolOutput"]), c.tool)
	}
}

func TestNoCredentialNoAnswer(t *testing.T) {
	for tool, response := range map[string]string{
		"Bash":             `{"stdout":"ok","stderr":"","interrupted":false}`,
		"Read":             `{"type":"text","file":{"filePath":"a","content":"x"}}`,
		"mcp__vault__read": `[{"type":"text","text":"owner: payments"},{"type":"image","data":"sk-live-notatext","mimeType":"image/png"}]`,
		"Write":            `{"type":"create","filePath":"a","content":"sk-live-1234567890","structuredPatch":[],"originalFile":null}`,
	} {
		rec := hooktest.Record(Handler(), hooktest.NewPostToolUse(tool, `{}`, response))
		require.NoError(t, rec.Err(), tool)
		assert.Equal(t, 0, rec.Code, tool)
		assert.Empty(t, rec.Stdout, tool)
	}
}

func TestCodex(t *testing.T) {
	// An MCP result object: its blocks and its structured content, which
	// Codex shows the model, in the legacy field Codex reads.
	rec := hooktest.Record(Handler(), hooktest.NewCodexPostToolUse("mcp__vault__read", `{"path":"a"}`,
		`{"content":[{"type":"text","text":"{\"key\":\"sk-live-abcdef12\"}"}],"structuredContent":{"key":"sk-live-abcdef12","n":2.50}}`))
	require.NoError(t, rec.Err())
	assert.Equal(t, `{"content":[{"type":"text","text":"{\"key\":\"[redacted]\"}"}],"structuredContent":{"key":"[redacted]","n":2.50}}`,
		string(rec.HookSpecificOutput["updatedMCPToolOutput"]))
	assert.NotContains(t, rec.HookSpecificOutput, "updatedToolOutput")

	// A shell output cannot be replaced under Codex: the model is told.
	rec = hooktest.Record(Handler(), hooktest.NewCodexPostToolUse("Bash", `{"command":"env"}`, `"KEY=sk-live-abcdef12\n"`))
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, "holds a credential")
	assert.Empty(t, rec.HookSpecificOutput["updatedToolOutput"])
}

// TestPropertyRun runs the hook over every PostToolUse fixture, Claude
// Code's and Codex's, with tricky values in every other place of results
// that hold a credential: it answers, and loses or mangles nothing.
func TestPropertyRun(t *testing.T) {
	tools := []hooktest.Tool{
		{Name: "Bash", Input: `{"command":"env"}`, Response: `{"stdout":"KEY=sk-live-9f3a4b5c","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
		{Name: "mcp__vault__read", Input: `{"path":"app/key"}`, Response: `[{"type":"text","text":"token sk-live-77abcdef for app"},{"type":"text","text":"expires in 3 days"}]`},
	}
	rep := hooktest.CheckHandler(t, Handler(), &hooktest.Options{
		Fixtures:      append(hooktest.Fixtures(), hooktest.CodexFixtures()...),
		Tools:         tools,
		OutputChanges: []string{"stdout", "/0/text"},
	})
	assert.Empty(t, rep.Failures)
	assert.Greater(t, rep.Updates, 3*len(hooktest.TrickyValues()), "the credential results answered with every value in their other places")
}

// copilotPost is a PostToolUse of the GitHub Copilot CLI (1.0.102, hooks
// under PascalCase names) for tool, whose tool_result carries text, the
// only text its model reads.
func copilotPost(tool, text string) []byte {
	return []byte(`{"hook_event_name":"PostToolUse","session_id":"196062a2-fb03-4186-aea1-dffeceacfe17","timestamp":"2026-12-04T17:00:06.914Z","cwd":"/home/dev/proj","tool_name":"` + tool +
		`","tool_input":{"command":"env"},"tool_result":{"result_type":"success","text_result_for_llm":` + strconv.Quote(text) + `}}`)
}

// TestCopilot: Copilot replaces no result, and its tool_result is its
// own shape whatever the tool: a credential in it is answered with a
// block, for a built-in tool and an MCP tool alike; a result without one
// gets no answer.
func TestCopilot(t *testing.T) {
	for _, tool := range []string{"Bash", "Read", "mcp__vault__read"} {
		rec := hooktest.Record(Handler(), copilotPost(tool, "KEY=sk-live-abcdef12\n"))
		require.NoError(t, rec.Err(), tool)
		assert.Equal(t, hook.ExitOK, rec.Code, "%s: %s", tool, rec.Stderr)
		assert.Equal(t, "block", rec.Decision, "%s: %s", tool, rec.Stdout)
		assert.Contains(t, rec.Reason, "holds a credential", tool)

		rec = hooktest.Record(Handler(), copilotPost(tool, "nothing to hide"))
		require.NoError(t, rec.Err(), tool)
		assert.Equal(t, hook.ExitOK, rec.Code, "%s: %s", tool, rec.Stderr)
		assert.Empty(t, rec.Stdout, tool)
	}
}
