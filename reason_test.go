package hook

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/agent"
)

// blankReasons are reasons that say nothing: empty, and every character
// of Unicode's White_Space alone (what Codex's trim removes), U+FEFF
// (which JavaScript's trim removes too), and a mixture.
func blankReasons() []string {
	bs := []string{"", "\uFEFF", " \t\n\v\f\r\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\uFEFF"}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.White_Space, r) {
			bs = append(bs, string(r))
		}
	}
	return bs
}

// TestBlankReason: a reason is blank exactly when every character of it
// is Unicode White_Space or U+FEFF; a character that only looks empty
// (a zero-width space, NUL) or a byte that is not UTF-8 says something.
func TestBlankReason(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		want := unicode.Is(unicode.White_Space, r) || r == '\uFEFF'
		if blankReason(string(r)) != want || blankReason(" "+string(r)+"\n") != want {
			t.Errorf("blankReason(%U) is %v, want %v", r, !want, want)
		}
	}
	assert.True(t, blankReason(""))
	for _, s := range []string{"\u200b", "\x00", "\xff", " \xa0", "no", " x "} {
		assert.False(t, blankReason(s), "%q", s)
		assert.Equal(t, s, reasonOrDefault(s), "%q", s)
	}
	for _, s := range blankReasons() {
		assert.True(t, blankReason(s), "%q", s)
		assert.Equal(t, defaultBlockReason, reasonOrDefault(s), "%q", s)
		assert.Equal(t, defaultBlockReason, Block(s).Error(), "%q", s)
		assert.Equal(t, defaultBlockReason, (&BlockError{Reason: s}).Error(), "%q", s)
	}
}

// blockAnswer is an answer that blocks or denies with a reason, the
// input fixture it answers (and the Codex one, "" when Codex has no such
// answer), and the JSON pointer of the reason in the answer written (or
// pointers, separated by "|": the first one present).
type blockAnswerCase struct {
	name, fixture, codex string
	answer               func(reason string) Output
	pointer              string
}

var blockAnswerCases = []blockAnswerCase{
	{"PreToolUse deny", "pretooluse-bash.json", "pre-tool-use", func(r string) Output { return &PreToolUseOutput{Decision: Deny, Reason: r} }, "/hookSpecificOutput/permissionDecisionReason"},
	{"PreToolUse deny with context", "pretooluse-bash.json", "pre-tool-use", func(r string) Output { return &PreToolUseOutput{Decision: Deny, Reason: r, AdditionalContext: "c"} }, "/hookSpecificOutput/permissionDecisionReason"},
	// (A Chain writes the combined decision in the current form.)
	{"PreToolUse legacy deny", "pretooluse-bash.json", "pre-tool-use", func(r string) Output { return &PreToolUseOutput{Decision: Deny, Reason: r, Legacy: true} }, "/reason|/hookSpecificOutput/permissionDecisionReason"},
	{"PermissionRequest deny", "permissionrequest-bash.json", "permission-request", func(r string) Output { return &PermissionRequestOutput{Decision: Deny, Message: r} }, "/hookSpecificOutput/decision/message"},
	{"PostToolUse block", "posttooluse-bash.json", "post-tool-use", func(r string) Output { return &PostToolUseOutput{Block: true, Reason: r} }, "/reason"},
	{"UserPromptSubmit block", "userpromptsubmit.json", "user-prompt-submit", func(r string) Output { return &UserPromptSubmitOutput{Block: true, Reason: r} }, "/reason"},
	{"Stop block", "stop.json", "stop", func(r string) Output { return &StopOutput{Block: true, Reason: r} }, "/reason"},
	{"SubagentStop block", "subagentstop.json", "subagent-stop", func(r string) Output { return &SubagentStopOutput{Block: true, Reason: r} }, "/reason"},
	{"UserPromptExpansion block", "userpromptexpansion.json", "", func(r string) Output { return &UserPromptExpansionOutput{Block: true, Reason: r} }, "/reason"},
	{"PostToolBatch block", "posttoolbatch.json", "", func(r string) Output { return &PostToolBatchOutput{Block: true, Reason: r} }, "/reason"},
	{"PreCompact block", "precompact-manual.json", "", func(r string) Output { return &PreCompactOutput{Block: true, Reason: r} }, "/reason"},
	{"ConfigChange block", "configchange.json", "", func(r string) Output { return &ConfigChangeOutput{Block: true, Reason: r} }, "/reason"},
	{"Elicitation block", "elicitation-form.json", "", func(r string) Output { return &ElicitationOutput{Block: true, Reason: r} }, "/reason"},
	{"ElicitationResult block", "elicitationresult.json", "", func(r string) Output { return &ElicitationResultOutput{Block: true, Reason: r} }, "/reason"},
	{"TaskCreated block", "taskcreated.json", "", func(r string) Output { return &TaskCreatedOutput{Block: true, Reason: r} }, "/reason"},
	{"PreSkillShellCommand deny", "preskillshellcommand.json", "", func(r string) Output { return &PreSkillShellCommandOutput{Decision: Deny, Reason: r} }, "/hookSpecificOutput/permissionDecisionReason"},
	{"PreModelSwitch deny", "premodelswitch.json", "", func(r string) Output { return &PreModelSwitchOutput{Decision: Deny, Reason: r} }, "/hookSpecificOutput/permissionDecisionReason"},
}

// reasonServers are the ways a handler is served: alone, failing closed
// (the server's setting and the wrapper), through a Chain (alone and
// with a handler that answers nothing after it) and a Mux.
func reasonServers(event string, h Handler) map[string]*Server {
	m := NewMux()
	m.Handle(event, h)
	none := HandlerFunc(func(context.Context, *Event) (Output, error) { return nil, nil })
	return map[string]*Server{
		"plain":             {Handler: h},
		"Server.FailClosed": {Handler: h, FailClosed: true},
		"FailClosed":        {Handler: FailClosed(h)},
		"Chain":             {Handler: Chain(h, none)},
		"FailClosed(Chain)": {Handler: FailClosed(Chain(none, h))},
		"Mux":               {Handler: m, FailClosed: true},
	}
}

// pointerString returns the string at the JSON pointer p of the object b.
func pointerString(t *testing.T, b []byte, p string) (string, bool) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = m[tok]; !ok {
			return "", false
		}
	}
	s, ok := v.(string)
	return s, ok
}

// TestBlankReasonGetsTheDefault: a deny or block whose reason trims to
// nothing is written with the default reason, in the reason field of its
// JSON answer, on every event that has one, under Claude Code and Codex
// (whose check then accepts it), alone, through Chain and Mux, with and
// without failing closed. A reason that says something is written as it
// is.
func TestBlankReasonGetsTheDefault(t *testing.T) {
	codex := agent.CodexFixtures()
	for _, c := range blockAnswerCases {
		payloads := map[string][]byte{"Claude Code": append(compactFixture(t, readFixture(t, c.fixture)), '\n')}
		if c.codex != "" {
			payloads["Codex"] = codex[c.codex]
			require.NotEmpty(t, payloads["Codex"], c.codex)
		}
		for who, payload := range payloads {
			event := eventFromBytes(t, payload).HookEventName
			for _, reason := range append(blankReasons(), "no, because") {
				want := reasonOrDefault(reason)
				h := HandlerFunc(func(context.Context, *Event) (Output, error) { return c.answer(reason), nil })
				for how, srv := range reasonServers(event, h) {
					name := fmt.Sprintf("%s/%s/%s/%q", c.name, who, how, reason)
					var stdout, stderr bytes.Buffer
					code := srv.Serve(context.Background(), bytes.NewReader(payload), &stdout, &stderr)
					if !assert.Equal(t, ExitOK, code, "%s: %s", name, stderr.String()) {
						continue
					}
					assert.Empty(t, stderr.String(), name)
					var (
						got string
						ok  bool
					)
					for _, p := range strings.Split(c.pointer, "|") {
						if got, ok = pointerString(t, stdout.Bytes(), p); ok {
							break
						}
					}
					assert.True(t, ok, "%s: no %s in %s", name, c.pointer, stdout.String())
					assert.Equal(t, want, got, name)
					if who == "Codex" {
						assert.NoError(t, agent.CheckCodexAnswer(event, stdout.Bytes()), name)
					}
				}
			}
		}
	}
}

// TestBlankBlockErrorGetsTheDefault: a Block (or a *BlockError, wrapped
// or not) whose reason trims to nothing blocks with the default reason,
// never a blank one, on every event of every fixture of both agents on
// which exit 2 blocks, alone, through Chain and Mux, with and without
// failing closed: exit 2 with "blocked by hook" on stderr, or, where a
// Chain turns the block into its event's JSON block form, that form with
// the default reason.
func TestBlankBlockErrorGetsTheDefault(t *testing.T) {
	payloads := map[string][]byte{}
	for _, f := range []string{"pretooluse-bash.json", "permissionrequest-bash.json", "posttooluse-bash.json", "userpromptsubmit.json",
		"userpromptexpansion.json", "stop.json", "subagentstop.json", "posttoolbatch.json", "precompact-manual.json", "configchange.json",
		"elicitation-form.json", "elicitationresult.json", "taskcreated.json", "taskcompleted.json", "teammateidle.json",
		"preskillshellcommand.json", "premodelswitch.json", "worktreecreate.json"} {
		payloads["claude/"+f] = append(compactFixture(t, readFixture(t, f)), '\n')
	}
	for name, p := range agent.CodexFixtures() {
		payloads["codex/"+name] = p
	}
	errs := map[string]func(string) error{
		"Block":              Block,
		"*BlockError":        func(r string) error { return &BlockError{Reason: r} },
		"wrapped BlockError": func(r string) error { return fmt.Errorf("policy: %w", &BlockError{Reason: r}) },
	}
	blocked := 0
	for pname, payload := range payloads {
		ev := eventFromBytes(t, payload)
		if !ev.canBlock() {
			continue
		}
		for ename, mk := range errs {
			for _, reason := range []string{"", " ", "\n", "\u00a0", "\u3000", "\u2028", "\u0085", "\t\u2029 \uFEFF"} {
				h := HandlerFunc(func(context.Context, *Event) (Output, error) { return nil, mk(reason) })
				for how, srv := range reasonServers(ev.HookEventName, h) {
					name := fmt.Sprintf("%s/%s/%s/%q", pname, ename, how, reason)
					var stdout, stderr bytes.Buffer
					code := srv.Serve(context.Background(), bytes.NewReader(payload), &stdout, &stderr)
					switch code {
					case ExitBlock:
						blocked++
						assert.Empty(t, stdout.String(), name)
						assert.Equal(t, defaultBlockReason+"\n", stderr.String(), name)
					case ExitOK:
						// A Chain's JSON block form.
						assert.Empty(t, stderr.String(), name)
						assert.Contains(t, stdout.String(), `"`+defaultBlockReason+`"`, name)
						if strings.HasPrefix(pname, "codex/") {
							assert.NoError(t, agent.CheckCodexAnswer(ev.HookEventName, stdout.Bytes()), name)
						}
					default:
						t.Errorf("%s: exit %d, stderr %q", name, code, stderr.String())
					}
				}
			}
		}
	}
	assert.Positive(t, blocked)
}

// TestBlankBlockOverHTTP: an http hook's block with a blank reason
// carries the default reason in its message and its JSON block form.
func TestBlankBlockOverHTTP(t *testing.T) {
	for _, f := range []string{"pretooluse-bash.json", "stop.json", "userpromptsubmit.json"} {
		payload := compactFixture(t, readFixture(t, f))
		srv := &Server{Handler: HandlerFunc(func(context.Context, *Event) (Output, error) { return nil, Block("\u3000\n") })}
		reply := srv.ServeHTTPBody(context.Background(), bytes.NewReader(payload), int64(len(payload)), nil)
		assert.Equal(t, "block", reply.Decision, f)
		assert.Equal(t, defaultBlockReason, reply.Message, f)
		assert.Contains(t, string(reply.Body), `"`+defaultBlockReason+`"`, f)
	}
}

// TestJoinedBlankReasons: blocks whose reasons a Chain joins, each blank,
// make a blank reason too, which is written as the default.
func TestJoinedBlankReasons(t *testing.T) {
	for _, c := range []struct {
		fixture string
		answer  func(string) Output
	}{
		{"stop.json", func(r string) Output { return &StopOutput{Block: true, Reason: r} }},
		{"subagentstop.json", func(r string) Output { return &SubagentStopOutput{Block: true, Reason: r} }},
		{"posttooluse-bash.json", func(r string) Output { return &PostToolUseOutput{Block: true, Reason: r} }},
		{"posttoolbatch.json", func(r string) Output { return &PostToolBatchOutput{Block: true, Reason: r} }},
	} {
		answer := func(r string) Handler {
			return HandlerFunc(func(context.Context, *Event) (Output, error) { return c.answer(r), nil })
		}
		payload := append(compactFixture(t, readFixture(t, c.fixture)), '\n')
		code, stdout, stderr := serveTo(t, &Server{Handler: Chain(answer(" "), answer("\u3000"), answer("\n"))}, payload)
		require.Equal(t, ExitOK, code, stderr)
		got, ok := pointerString(t, []byte(stdout), "/reason")
		assert.True(t, ok, stdout)
		assert.Equal(t, defaultBlockReason, got, c.fixture)
	}
}

// serveTo serves payload with srv and returns the exit code, stdout and
// stderr.
func serveTo(t *testing.T, srv *Server, payload []byte) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := srv.Serve(context.Background(), bytes.NewReader(payload), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}
