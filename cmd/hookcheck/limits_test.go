package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// TestDefaultsFitTheMachine: one run per CPU, and each run gets the
// timeout Claude Code gives a hook of its event.
func TestDefaultsFitTheMachine(t *testing.T) {
	parse := func(args ...string) *config {
		t.Helper()
		cfg, err := parseFlags(append(args, "--", "true"), io.Discard)
		require.NoError(t, err)
		return cfg
	}
	cfg := parse()
	assert.Equal(t, runtime.GOMAXPROCS(0), cfg.parallel)
	prev := runtime.GOMAXPROCS(1)
	assert.Equal(t, 1, parse().parallel, "derived from the CPUs Go may use, not fixed")
	runtime.GOMAXPROCS(prev)
	assert.Equal(t, 3, parse("-parallel", "3").parallel)

	assert.Zero(t, cfg.timeout)
	for event, want := range map[string]time.Duration{
		hook.EventPreToolUse:        600 * time.Second,
		hook.EventPermissionRequest: 600 * time.Second,
		hook.EventStop:              600 * time.Second,
		hook.EventUserPromptSubmit:  30 * time.Second,
		hook.EventMessageDisplay:    10 * time.Second,
		hook.EventPreModelSwitch:    30 * time.Second,
		hook.EventSessionEnd:        1500 * time.Millisecond,
	} {
		assert.Equal(t, want, cfg.limitOf(event), event)
	}

	// -timeout as settings.json gives it (seconds), or as a duration.
	for in, want := range map[string]time.Duration{"30": 30 * time.Second, "1.5": 1500 * time.Millisecond, "90s": 90 * time.Second, "2m": 2 * time.Minute} {
		cfg := parse("-timeout", in)
		assert.Equal(t, want, cfg.limitOf(hook.EventUserPromptSubmit), in)
		assert.Equal(t, want, cfg.limitOf(hook.EventPreToolUse), in)
	}
	for _, bad := range []string{"0", "-5", "0s", "soon", "NaN"} {
		_, err := parseFlags([]string{"-timeout", bad, "--", "true"}, io.Discard)
		assert.ErrorContains(t, err, "-timeout", bad)
	}
}

// TestTimeoutSaysWhatTheLimitWas: a timeout finding names itself and the
// limit, Claude Code's or the one given.
func TestTimeoutSaysWhatTheLimitWas(t *testing.T) {
	c := &testCase{p: &payload{event: hook.EventUserPromptSubmit}, field: -1}
	res := result{timedOut: true, limit: 30 * time.Second, elapsed: 30*time.Second + 2*time.Millisecond}
	assert.Equal(t, "timed out: no exit within Claude Code's default timeout of a UserPromptSubmit hook, 30s; hookcheck killed its process tree after 30.002s, as Claude Code kills a hook at its timeout, discards its output and takes no decision",
		timeoutMessage(c, res, false, claudeCode))
	assert.Contains(t, timeoutMessage(c, res, true, claudeCode), "timed out: no exit within the 30s limit given with -timeout;")
	c.p.event = hook.EventSessionEnd
	res.limit = sessionEndTimeout
	assert.Contains(t, timeoutMessage(c, res, false, claudeCode), "default timeout of a SessionEnd hook, 1.5s (the budget of all SessionEnd hooks; a timeout in settings.json raises it to at most 60s)")

	// The report says which limits applied.
	outs := []*outcome{{c: &testCase{p: &payload{event: hook.EventPreToolUse}}}, {c: &testCase{p: &payload{event: hook.EventUserPromptSubmit}}}}
	assert.Equal(t, "Claude Code's default timeouts: 600s, UserPromptSubmit 30s", limitText(&config{}, outs))
}

// TestGivenInputAlwaysRuns: the author's -input runs even when a built-in
// fixture has its shape (the same tool and member names), and the report
// names it. The guard answers only the author's command.
func TestGivenInputAlwaysRuns(t *testing.T) {
	needs(t, "bash")
	input := `{"command":"rm -rf build","description":"Clean the build","timeout":60000}`
	cfg, err := parseFlags([]string{"-matcher", "Bash", "-tool", "Bash", "-input", input, "--", "true"}, io.Discard)
	require.NoError(t, err)
	ps, err := loadFixtures(cfg)
	require.NoError(t, err)
	var names []string
	for _, p := range distinctShapes(ps) {
		names = append(names, p.name)
	}
	assert.Contains(t, names, "pretooluse Bash")
	assert.NotContains(t, names, "pretooluse-bash", "the built-in fixture of the same shape gives way to the author's")

	code, rep := hookcheck(t, "-matcher", "Bash", "-tool", "Bash", "-input", input, "-values", "title", "-per-member", "1", "--", "testdata/bash/guard.sh")
	assert.Equal(t, exitFindings, code)
	require.Len(t, rep.Given, 1)
	assert.Equal(t, "pretooluse Bash", rep.Given[0].Fixture)
	assert.Equal(t, 5, rep.Given[0].Runs, "the call as it is, a tricky value in each of its three members, and the unusual names")
	assert.Equal(t, 4, rep.Given[0].Failed, "a title in place of the command is no rm -rf")
	assert.NotEmpty(t, findings(rep, "pretooluse Bash", kindExit2), "the guard answered the author's call:\n%s", failing(rep))
	assert.Empty(t, rep.Vacuous)

	var text bytes.Buffer
	require.NoError(t, writeText(&text, rep))
	assert.Contains(t, text.String(), "\n  your call (-tool, -input): pretooluse Bash, 5 runs, 4 with findings\n")
}

// TestSilentHookHintsPerEvent: a check the hook answered nothing in says
// what reaches a hook of the events sent: -tool for tool calls, -fixtures
// for the others.
func TestSilentHookHintsPerEvent(t *testing.T) {
	vacuousOf := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(append([]string{"-json"}, args...), "--", "true"), &stdout, &stderr)
		require.Equal(t, exitFindings, code, stderr.String())
		var rep report
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
		require.NotEmpty(t, rep.Vacuous)
		return rep.Vacuous
	}
	stop := vacuousOf("-event", "Stop")
	assert.Contains(t, stop, "hookcheck sent payloads of Stop.")
	assert.Contains(t, stop, "For Stop: put payloads the hook answers under -fixtures DIR")
	assert.Contains(t, stop, "a Stop payload with the last_assistant_message")
	assert.NotContains(t, stop, "-tool")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prompt.json"), hooktest.Payload("userpromptsubmit"), 0o644))
	prompt := vacuousOf("-event", "UserPromptSubmit", "-fixtures", dir)
	assert.Contains(t, prompt, "hookcheck sent payloads of UserPromptSubmit.")
	assert.Contains(t, prompt, "under -fixtures "+dir)
	assert.Contains(t, prompt, "a UserPromptSubmit payload with the prompt the hook acts on")
	assert.NotContains(t, prompt, "-tool")

	// A PostToolUse hook is pointed at -response, which builds a
	// PostToolUse payload of its tool's call.
	post := vacuousOf("-event", "PostToolUse", "-matcher", "Bash")
	assert.Contains(t, post, "hookcheck sent calls of Bash.")
	assert.Contains(t, post, "-tool NAME -input '{...its tool_input...}' -response '...its tool_response...' sends a PostToolUse payload")
	assert.NotContains(t, post, "sends PreToolUse")

	pre := vacuousOf("-matcher", "Bash")
	assert.Contains(t, pre, "-tool NAME -input '{...its tool_input...}'")
	assert.NotContains(t, pre, "-fixtures")

	all := vacuousOf("-values", "title", "-per-member", "1")
	assert.Contains(t, all, "Give -event and -matcher as in its settings.json")
	assert.Contains(t, all, "-tool NAME")
	assert.Contains(t, all, "-fixtures DIR")
}

// TestNoOpRewriteIsNoUpdate: an updatedInput (or updatedToolOutput) that
// holds the value it replaces, as Claude Code reads it, counts as no
// update, and the report notes it; a real Python hook writes one.
func TestNoOpRewriteIsNoUpdate(t *testing.T) {
	needsPython3(t)
	code, rep := hookcheck(t, "-event", "PreToolUse,PostToolUse", "-matcher", "Bash", "-values", "quote,non-ASCII,big integer,lone high surrogate escape",
		"--", "python3", "testdata/python/echo.py")
	assert.Equal(t, exitPass, code, failing(rep))
	assert.Zero(t, rep.Updated)
	assert.Equal(t, rep.Answered, rep.NoOpRuns)
	assert.Positive(t, rep.NoOpRuns)
	require.NotEmpty(t, rep.NoOps)
	var post bool
	for _, c := range rep.Cases {
		post = post || c.Event == hook.EventPostToolUse
	}
	assert.True(t, post, "PostToolUse payloads were sent")

	var text bytes.Buffer
	require.NoError(t, writeText(&text, rep))
	assert.Contains(t, text.String(), "answers rewrote the input to itself")
	assert.Contains(t, text.String(), "last-wins")
}

// TestNoPayloadHintsPerEvent: a selection of no payload points a hook of
// a tool's output to -tool with -response, which builds a PostToolUse
// payload of the call; a hook of no tool event to -fixtures.
func TestNoPayloadHintsPerEvent(t *testing.T) {
	usage := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args, "--", "true"), &stdout, &stderr)
		require.Equal(t, exitUsage, code, stdout.String())
		return stderr.String()
	}
	post := usage("-event", "PostToolUse", "-matcher", "mcp__aisle__listen_here")
	assert.Contains(t, post, "no fixture of PostToolUse calls mcp__aisle__listen_here; give a call of it: -tool mcp__aisle__listen_here -input '{...its tool_input...}' -response '...its tool_response...'")
	pre := usage("-event", "PreToolUse,PostToolUse", "-matcher", "mcp__aisle__listen_here")
	assert.Contains(t, pre, "give a call of it: -tool mcp__aisle__listen_here -input '{...its tool_input...}' (and -response '...its tool_response...' for its PostToolUse payload)")
	regex := usage("-event", "PostToolUse", "-matcher", "mcp__aisle__.*")
	assert.Contains(t, regex, "give a call of the tool: -tool NAME -input '{...its tool_input...}' -response")

	// -response without a tool, or not one JSON value, is a usage error.
	assert.Contains(t, usage("-response", `"x"`), "-response needs -tool NAME and -input")
	assert.Contains(t, usage("-tool", "mcp__a__b", "-input", `{}`, "-response", `[1,`), "-response: not one JSON value")
	assert.Contains(t, usage("-tool", "mcp__a__b", "-input", `{}`, "-event", "PostToolUse"), "needs -response")
}
