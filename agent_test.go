package hook_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/testutil"
)

// agentPayloads returns the payload fixtures of the agent kept under
// internal/agent/testdata/dir, by file name.
func agentPayloads(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("internal", "agent", "testdata", dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names, dir)
	m := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		require.NoError(t, err)
		m[filepath.Base(n)] = b
	}
	return m
}

// recordAgent is a handler that records the agent of the event it gets.
func recordAgent(got *hook.Agent, ran *bool) hook.Handler {
	return hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		*got, *ran = ev.Agent(), true
		return nil, nil
	})
}

func TestEventAgentClaudeCode(t *testing.T) {
	for _, f := range hooktest.Fixtures() {
		var got hook.Agent
		var ran bool
		code, stdout, stderr := testutil.Serve(t, recordAgent(&got, &ran), f.JSON)
		require.Equal(t, 0, code, "%s: %s", f.Name, stderr)
		assert.Empty(t, stdout, f.Name)
		assert.True(t, ran, f.Name)
		assert.Equal(t, hook.AgentClaudeCode, got, f.Name)
	}
}

func TestEventAgentCodex(t *testing.T) {
	fs := agent.CodexFixtures()
	require.NotEmpty(t, fs)
	for name, b := range fs {
		var got hook.Agent
		var ran bool
		code, _, stderr := testutil.Serve(t, recordAgent(&got, &ran), b)
		require.Equal(t, 0, code, "%s: %s", name, stderr)
		assert.True(t, ran, name)
		assert.Equal(t, hook.AgentCodex, got, name)
		assert.Equal(t, "Codex", got.String())
	}
}

func TestEventAgentWithBOM(t *testing.T) {
	b := append([]byte{0xEF, 0xBB, 0xBF}, agent.CodexFixtures()["pre-tool-use"]...)
	var got hook.Agent
	var ran bool
	code, _, stderr := testutil.Serve(t, recordAgent(&got, &ran), b)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, hook.AgentCodex, got)
}

func TestEventAgentOutsideServe(t *testing.T) {
	var ev hook.Event
	assert.Equal(t, hook.AgentUnknown, ev.Agent())
	// A minimal hand-written payload names no agent and is served as
	// Claude Code's.
	var got hook.Agent
	var ran bool
	code, _, stderr := testutil.Serve(t, recordAgent(&got, &ran), []byte(`{"hook_event_name":"Stop"}`))
	require.Equal(t, 0, code, stderr)
	assert.True(t, ran)
	assert.Equal(t, hook.AgentUnknown, got)
}

// notServedAgents are the agents whose payloads Serve refuses, with the
// fixture directory of each.
var notServedAgents = map[string]hook.Agent{
	"cursor":       hook.AgentCursor,
	"gemini":       hook.AgentGemini,
	"copilotcamel": hook.AgentCopilotCamel,
}

func TestNotServedFailOpen(t *testing.T) {
	for dir, want := range notServedAgents {
		for name, b := range agentPayloads(t, dir) {
			ran := false
			h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
				ran = true
				return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"}, nil
			})
			code, stdout, stderr := testutil.Serve(t, h, b)
			assert.Equal(t, hook.ExitOK, code, name)
			assert.Empty(t, stdout, name)
			assert.False(t, ran, "%s: the handler ran", name)
			assert.Equal(t, agent.Agent(want).NotServed(false)+"\n", stderr, name)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), name)
			assert.Contains(t, stderr, want.String(), name)
		}
	}
}

func TestNotServedFailClosed(t *testing.T) {
	handlers := map[string]func(ran *bool) (hook.Handler, *hook.Server){
		"FailClosed": func(ran *bool) (hook.Handler, *hook.Server) {
			return hook.FailClosed(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				*ran = true
				return nil, nil
			})), nil
		},
		"Server.FailClosed": func(ran *bool) (hook.Handler, *hook.Server) {
			h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
				*ran = true
				return nil, nil
			})
			return nil, &hook.Server{Handler: h, FailClosed: true}
		},
	}
	for how, mk := range handlers {
		for dir, want := range notServedAgents {
			for name, b := range agentPayloads(t, dir) {
				ran := false
				h, srv := mk(&ran)
				if srv == nil {
					srv = &hook.Server{Handler: h}
				}
				var stdout, stderr bytes.Buffer
				code := srv.Serve(context.Background(), bytes.NewReader(b), &stdout, &stderr)
				assert.Equal(t, hook.ExitBlock, code, "%s %s", how, name)
				assert.Empty(t, stdout.String(), name)
				assert.False(t, ran, "%s %s: the handler ran", how, name)
				assert.Equal(t, agent.Agent(want).NotServed(true)+"\n", stderr.String(), "%s %s", how, name)
			}
		}
	}
}

// codexPre returns Codex's PreToolUse payload for a shell command.
func codexPre() []byte { return agent.CodexFixtures()["pre-tool-use"] }

func TestCodexRewriteWithAllow(t *testing.T) {
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := e.Merge(map[string]any{"command": "npm test -- --ci"})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: in}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, codexPre())
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Empty(t, stderr)
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"npm test -- --ci"}}}`, stdout)
	require.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)))
}

func TestCodexDenyIsWritten(t *testing.T) {
	h := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no npm"}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, codexPre())
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"permissionDecision":"deny"`)
}

// TestCodexRefusedAnswers serves Codex payloads with answers Codex would
// refuse: nothing reaches stdout, and the failure is one stderr line
// naming the rule (exit 1), or a block (exit 2) when the hook fails
// closed and Codex blocks on exit 2 for the event (PostToolUse and
// PermissionRequest too, where Claude Code does not).
func TestCodexRefusedAnswers(t *testing.T) {
	fx := agent.CodexFixtures()
	cases := []struct {
		name, fixture string
		out           func(ev *hook.Event) hook.Output
		want          string
	}{
		{"updatedInput without decision", "pre-tool-use", func(ev *hook.Event) hook.Output {
			return &hook.PreToolUseOutput{UpdatedInput: []byte(`{"command":"npm ci"}`)}
		}, `Codex applies updatedInput only with permissionDecision "allow"`},
		{"allow without updatedInput", "pre-tool-use", func(*hook.Event) hook.Output {
			return &hook.PreToolUseOutput{Decision: hook.Allow}
		}, `Codex does not support "allow" without updatedInput`},
		{"ask", "pre-tool-use", func(*hook.Event) hook.Output {
			return &hook.PreToolUseOutput{Decision: hook.Ask, Reason: "sure?"}
		}, `Codex does not support "ask"`},
		{"defer", "pre-tool-use", func(*hook.Event) hook.Output {
			return &hook.PreToolUseOutput{Decision: hook.Defer}
		}, `hookSpecificOutput.permissionDecision: "defer" is not one of`},
		{"continue false", "pre-tool-use", func(*hook.Event) hook.Output {
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no", Common: hook.Common{Halt: true}}
		}, "continue: Codex does not support continue:false"},
		{"suppressOutput", "post-tool-use", func(*hook.Event) hook.Output {
			return &hook.PostToolUseOutput{Common: hook.Common{SuppressOutput: true}}
		}, "suppressOutput: Codex does not support suppressOutput:true"},
		{"PermissionRequest rewrite", "permission-request", func(*hook.Event) hook.Output {
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: []byte(`{"command":"npm ci"}`)}
		}, "hookSpecificOutput.decision.updatedInput"},
	}
	for _, c := range cases {
		for _, closed := range []bool{false, true} {
			h := hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) { return c.out(ev), nil })
			var stdout, stderr bytes.Buffer
			srv := hook.Server{Handler: h, FailClosed: closed}
			code := srv.Serve(context.Background(), bytes.NewReader(fx[c.fixture]), &stdout, &stderr)
			want := hook.ExitError
			ev := map[string]string{"pre-tool-use": "PreToolUse", "post-tool-use": "PostToolUse", "permission-request": "PermissionRequest"}[c.fixture]
			if closed && agent.CodexBlocksOnExit2(ev) {
				want = hook.ExitBlock
			}
			assert.Equal(t, want, code, "%s closed=%v: %s", c.name, closed, stderr.String())
			assert.Empty(t, stdout.String(), c.name)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), c.name)
			assert.True(t, strings.HasPrefix(stderr.String(), "hook: invalid answer to "), stderr.String())
			assert.Contains(t, stderr.String(), c.want, c.name)
		}
	}
}

func TestCodexUpdatedInputWithoutDecisionSaysHow(t *testing.T) {
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := e.Merge(map[string]any{"command": "npm ci"})
		return &hook.PreToolUseOutput{UpdatedInput: in}, err
	})
	code, stdout, stderr := testutil.Serve(t, h, codexPre())
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	// The trade-off, not a prescription: an allow skips Codex's approval.
	assert.Contains(t, stderr, "an allow skips Codex's approval prompt")
	assert.Contains(t, stderr, "without one the rewrite is not applied")
	for _, c := range []string{"hook.CodexRewriteAllow", "hook.CodexRewriteSkip", "hook.CodexRewriteDeny"} {
		assert.Contains(t, stderr, c)
	}
	assert.NotContains(t, stderr, "set Decision: hook.Allow")
	assert.Equal(t, 1, strings.Count(stderr, "\n"))
	// The same answer is valid for Claude Code, and written there.
	code, stdout, stderr = testutil.Serve(t, h, testutil.PreToolUse("Bash", `{"command":"npm test"}`))
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"updatedInput"`)
	assert.NotContains(t, stdout, `permissionDecision`)
}

func TestCodexPostToolUseStringResponse(t *testing.T) {
	for _, name := range []string{"post-tool-use", "post-tool-use-empty-output"} {
		var got string
		h := hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			got = string(e.ToolResponse)
			return &hook.PostToolUseOutput{AdditionalContext: "seen"}, nil
		})
		code, stdout, stderr := testutil.Serve(t, h, agent.CodexFixtures()[name])
		require.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
		assert.True(t, strings.HasPrefix(got, `"`), "%s: tool_response %s", name, got)
		require.NoError(t, agent.CheckCodexAnswer("PostToolUse", []byte(stdout)), name)
	}
}

func TestAgentMatchesDetect(t *testing.T) {
	for a, want := range map[hook.Agent]agent.Agent{
		hook.AgentUnknown: agent.Unknown, hook.AgentClaudeCode: agent.ClaudeCode, hook.AgentCodex: agent.Codex,
		hook.AgentCursor: agent.Cursor, hook.AgentGemini: agent.GeminiCLI, hook.AgentCopilot: agent.CopilotCLI,
		hook.AgentCopilotCamel: agent.CopilotCLICamel,
	} {
		assert.Equal(t, uint8(want), uint8(a))
		assert.Equal(t, want.String(), a.String())
	}
	assert.True(t, hook.AgentUnknown.Served())
	assert.True(t, hook.AgentClaudeCode.Served())
	assert.True(t, hook.AgentCodex.Served())
	assert.False(t, hook.AgentCursor.Served())
	assert.False(t, hook.AgentGemini.Served())
	assert.True(t, hook.AgentCopilot.Served())
	assert.False(t, hook.AgentCopilotCamel.Served())
	assert.Equal(t, "Gemini CLI", hook.AgentGemini.String())
}

// TestCodexRefusedUnderFailClosedBlocks: a handler wrapped in FailClosed
// blocks when its answer is one Codex would refuse, as for any invalid
// answer.
func TestCodexRefusedUnderFailClosedBlocks(t *testing.T) {
	h := hook.FailClosed(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := e.Merge(map[string]any{"command": "npm ci"})
		return &hook.PreToolUseOutput{UpdatedInput: in}, err
	}))
	code, stdout, stderr := testutil.Serve(t, h, codexPre())
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "an allow skips Codex's approval prompt")
	assert.Contains(t, stderr, "hook.CodexRewriteSkip")
	assert.Equal(t, 1, strings.Count(stderr, "\n"))
}

// TestGuardRunsWithMembersClaudeCodeMayAdd: a fail-open guard still runs
// and blocks when Claude Code's payload carries a member another agent
// sends, under every transcript form Claude Code may send (hosted modes
// send ""), and when the payload is another agent's that carries nothing
// Claude Code could not send (internal/agent/testdata/neutral).
func TestGuardRunsWithMembersClaudeCodeMayAdd(t *testing.T) {
	base := `"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_1"`
	extras := []string{`"mcp_context":{}`, `"workspace_roots":["/p"]`, `"conversation_id":"c","generation_id":"g"`,
		`"sessionId":"s"`, `"toolName":"Bash"`, `"timestamp":"2026-12-01T10:00:00Z"`, `"timestamp":1764583200000`, `"turn_id":"u"`}
	transcripts := []string{`,"transcript_path":""`, `,"transcript_path":null`, ``, `,"transcript_path":"t.jsonl"`, `,"transcript_path":"/h/.claude/projects/p/s.jsonl"`}
	for _, extra := range extras {
		for _, tr := range transcripts {
			payload := []byte("{" + base + tr + "," + extra + "}")
			ran := false
			h := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				ran = true
				return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"}, nil
			})
			code, stdout, stderr := testutil.Serve(t, h, payload)
			require.True(t, ran, "%s: the guard did not run: %s", payload, stderr)
			assert.Equal(t, hook.ExitOK, code, string(payload))
			assert.Contains(t, stdout, `"permissionDecision":"deny"`, string(payload))
		}
	}
	for name, b := range agentPayloads(t, "neutral") {
		var got hook.Agent
		var ran bool
		_, _, stderr := testutil.Serve(t, recordAgent(&got, &ran), b)
		assert.True(t, ran, "%s: %s", name, stderr)
		assert.Equal(t, hook.AgentClaudeCode, got, name)
	}
}
