package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/verdict"
)

// aisle is the seed's own call.
const aisle = `{"room":"Quarterly Planning","seats":12}`

// TestLobbyIsReported: a hook that sets the model's room to "lobby"
// whatever room it chose is the seed bug's effect, not a member of the
// hook's own: every run that changed the room is reported, and says that
// the hook sets one value. -changed room is how the author says the room
// is the hook's to set.
func TestLobbyIsReported(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/golobby")
	code, rep := hookcheck(t, "-matcher", "mcp__aisle__listen_here", "-input", aisle, "-values", "title,quote,non-ASCII", "--", bin)
	assert.Equal(t, exitFindings, code)
	require.Len(t, rep.Constant, 1, failing(rep))
	assert.Equal(t, constantMember{Fixture: "pretooluse mcp__aisle__listen_here", Pointer: "/tool_input/room", Value: `"lobby"`, Inputs: 3, Declared: false}, rep.Constant[0])
	fs := findings(rep, "pretooluse mcp__aisle__listen_here", kindMangled)
	require.Len(t, fs, 1, failing(rep))
	assert.Equal(t, "member set to one value", fs[0].Detail)
	assert.Contains(t, fs[0].Message, `/tool_input/room: member changed from "Quarterly Planning" to "lobby"`)
	assert.Contains(t, fs[0].Message, `the hook sets it to "lobby" whatever the model sent (3 different values in, one out), so the model's value is lost; if the member is the hook's own, give -changed room`)
	for _, c := range rep.Cases {
		if c.Pointer == "/tool_input/room" {
			assert.NotEmpty(t, c.Findings, "%s: the model's room is lost", c.Name)
		}
	}
	var text bytes.Buffer
	require.NoError(t, writeText(&text, rep))
	assert.Contains(t, text.String(), "  set to one value whatever the model sent, the model's value lost (reported; -changed NAME if the member is the hook's own):\n"+
		`    pretooluse mcp__aisle__listen_here /tool_input/room = "lobby" (3 different values in)`+"\n")

	code, rep = hookcheck(t, "-matcher", "mcp__aisle__listen_here", "-input", aisle, "-values", "title,quote,non-ASCII", "-changed", "room", "--", bin)
	assert.Equal(t, exitPass, code, failing(rep))
	require.Len(t, rep.Constant, 1)
	assert.True(t, rep.Constant[0].Declared)
}

// TestUnusualMemberNames: a hook that keeps only the names it knows keeps
// every value the fixtures put in its members, and loses the members of
// other names: seat-count, and the room, which "Room" overwrites in Go's
// case-blind encoding/json.
func TestUnusualMemberNames(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/gostruct")
	code, rep := hookcheck(t, "-matcher", "mcp__aisle__listen_here", "-input", aisle, "-values", "title,quote", "--", bin)
	assert.Equal(t, exitFindings, code)
	assert.Equal(t, 1, rep.Names, "one call, one run with the unusual names")
	name := "pretooluse mcp__aisle__listen_here + " + verdict.NamesCase
	for _, c := range rep.Cases {
		if c.Name != name {
			assert.Empty(t, c.Findings, "%s keeps room and seats", c.Name)
		}
	}
	var lost []string
	for _, f := range findings(rep, name, kindLost) {
		lost = append(lost, f.Pointer)
	}
	for _, want := range []string{"/tool_input/seat-count", "/tool_input/a.b", "/tool_input/with space", "/tool_input/Größe-名前",
		"/tool_input/UPPER_CASE", "/tool_input/42", "/tool_input/slash~1and~0tilde", "/tool_input/Room", "/tool_input/Seats"} {
		assert.Contains(t, lost, want)
	}
	changed := findings(rep, name, kindMangled)
	require.NotEmpty(t, changed, failing(rep))
	assert.Equal(t, "/tool_input/room", changed[0].Pointer)
	assert.Contains(t, changed[0].Message, `member changed from "Quarterly Planning" to "the case twin of room"`)
}

// TestExit2ReasonQuotingACrash: a hook that blocks with a reason quoting
// a Go panic, a Python traceback or a Node stack blocked as it meant to;
// a Go program whose stderr is the runtime's crash report alone crashed.
func TestExit2ReasonQuotingACrash(t *testing.T) {
	quotes := map[string]string{
		"go":     "tests fail:\npanic: runtime error: index out of range [3] with length 0\n\ngoroutine 7 [running]:\nexample.com/app.TestRooms(0xc000102340)\n\t/src/app/rooms_test.go:12 +0x1d\nFAIL\texample.com/app\t0.012s\n",
		"python": "pytest failed:\nTraceback (most recent call last):\n  File \"test_rooms.py\", line 3, in test_room\nKeyError: 'room'\n",
		"node":   "npm test failed:\nTypeError: x\n    at Object.<anonymous> (/src/rooms.test.js:3:22)\n",
	}
	for lang, quote := range quotes {
		script := "cat >/dev/null; cat >&2 <<'EOF'\n" + quote + "EOF\nexit 2\n"
		code, rep := hookcheck(t, "-event", "UserPromptSubmit", "--", "sh", "-c", script)
		assert.Equal(t, exitPass, code, "%s: %s", lang, failing(rep))
		assert.Equal(t, rep.Runs, rep.Blocked, lang)
		assert.Zero(t, rep.FailedOpen, lang)
	}

	// Text of its own, then a Go crash report to the end: a note.
	script := "cat >/dev/null; printf 'the check failed:\\npanic: boom\\n\\ngoroutine 1 [running]:\\nmain.main()\\n\\t/src/main.go:9 +0x1d\\n' >&2; exit 2"
	code, rep := hookcheck(t, "-event", "UserPromptSubmit", "--", "sh", "-c", script)
	assert.Equal(t, exitPass, code, failing(rep))
	assert.Equal(t, rep.Runs, rep.NoteRuns)
	require.NotEmpty(t, rep.Notes)
	assert.Contains(t, rep.Notes[0].Message, "ends with a Go crash report")

	// The runtime's report alone: the crash of a Go hook.
	script = "cat >/dev/null; printf 'panic: boom\\n\\ngoroutine 1 [running]:\\nmain.main()\\n\\t/src/main.go:9 +0x1d\\n' >&2; exit 2"
	code, rep = hookcheck(t, "-event", "UserPromptSubmit", "--", "sh", "-c", script)
	assert.Equal(t, exitFindings, code)
	fs := findings(rep, rep.Cases[0].Name, kindStackTrace)
	require.Len(t, fs, 1, failing(rep))
	assert.Contains(t, fs[0].Message, "nothing on stderr but the Go runtime's crash report")
}

// TestFailedOpenSummary: the runs after which the agent goes on as if
// there were no hook are counted and shown, not hidden among "answered".
func TestFailedOpenSummary(t *testing.T) {
	code, rep := hookcheck(t, "-event", "Stop", "--", "sh", "-c", "cat >/dev/null; echo 'no config' >&2; exit 1")
	assert.Equal(t, exitFindings, code)
	assert.Equal(t, rep.Runs, rep.FailedOpen)
	assert.Equal(t, rep.Runs, rep.Answered)
	require.NotEmpty(t, rep.FailedOpenRuns)
	assert.Equal(t, "exit code 1: no config", rep.FailedOpenRuns[0].Message)
	var text bytes.Buffer
	require.NoError(t, writeText(&text, rep))
	assert.Contains(t, text.String(), "; 0 blocked or denied; 2 failed open), 0 silent\n")
	assert.Contains(t, text.String(), "  failed open: 2 runs after which Claude Code goes on with the call as if there were no hook, e.g.\n")
	assert.Contains(t, text.String(), ": exit code 1: no config\n")
}

// TestAgentCodexSpeaksOfCodex: under -agent codex, every message that
// names the agent names Codex.
func TestAgentCodexSpeaksOfCodex(t *testing.T) {
	// Exit 1 on every payload, a timeout, a broken answer: the messages
	// that name the agent.
	code, rep := hookcheck(t, "-agent", "codex", "-event", "PreToolUse,Stop", "-values", "title", "-per-member", "1", "--",
		"sh", "-c", `cat >/dev/null; echo '{"decision": "block",}'`)
	assert.Equal(t, exitFindings, code)
	assert.Equal(t, "Codex", rep.Agent)
	var text bytes.Buffer
	require.NoError(t, writeText(&text, rep))
	var js bytes.Buffer
	require.NoError(t, writeJSON(&js, rep))
	for _, out := range []string{text.String(), js.String()} {
		assert.NotContains(t, out, "Claude Code")
	}
	assert.Contains(t, text.String(), "failed open: ")
	assert.Contains(t, text.String(), "Codex reports a hook error and ignores it")

	var stdout, stderr bytes.Buffer
	c := run(context.Background(), []string{"-agent", "codex", "-event", "Stop", "-timeout", "0.3", "--", "sh", "-c", "sleep 5"}, &stdout, &stderr)
	assert.Equal(t, exitFindings, c)
	assert.NotContains(t, stdout.String(), "Claude Code")
	assert.True(t, strings.Contains(stdout.String(), "as Codex kills a hook at its timeout"), stdout.String())

	// Exit 2 blocks a Codex PreToolUse call; on SessionStart Codex takes
	// it for a failed hook and goes on.
	_, rep = hookcheck(t, "-agent", "codex", "-event", "PreToolUse,SessionStart", "-values", "title", "-per-member", "1", "--",
		"sh", "-c", "cat >/dev/null; echo no >&2; exit 2")
	for _, cr := range rep.Cases {
		open := slices.ContainsFunc(rep.FailedOpenRuns, func(e example) bool { return e.Case == cr.Name })
		if cr.Event == "SessionStart" {
			assert.True(t, open, "%s: %v", cr.Name, rep.FailedOpenRuns)
		} else {
			assert.False(t, open, cr.Name)
		}
	}
	assert.Contains(t, rep.FailedOpenRuns[0].Message, "exit code 2, which Codex takes for a failed hook on SessionStart: no")

	stdout.Reset()
	c = run(context.Background(), []string{"-agent", "codex", "-event", "Stop", "--", "true"}, &stdout, &stderr)
	assert.Equal(t, exitFindings, c, "answered nothing")
	assert.Contains(t, stdout.String(), "limit: Codex's default timeouts: 600s\n")
	assert.Contains(t, stdout.String(), "as Codex sends them")
	assert.NotContains(t, stdout.String(), "Claude Code")
}
