package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--"},
		{"-bogus", "--", "true"},
		{"-per-member", "0", "--", "true"},
		{"-parallel", "0", "--", "true"},
		{"-timeout", "0s", "--", "true"},
		{"-matcher", "(", "--", "true"},
		{"-values", "no such value", "--", "true"},
		{"-event", "NoSuchEvent", "--", "true"},
		{"-fixtures", "testdata/no-such-dir", "--", "true"},
		{"-fixtures", "testdata/bash", "--", "true"}, // no payload there
		{"--", "testdata/no-such-hook"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		assert.Equal(t, exitUsage, code, "%q", args)
		assert.Empty(t, stdout.String(), "%q", args)
		assert.Contains(t, stderr.String(), "hookcheck", "%q", args)
	}
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitPass, run(context.Background(), []string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "usage: hookcheck [flags] -- COMMAND [ARGS...]")
	assert.Contains(t, stderr.String(), "-per-member")
	assert.Contains(t, stderr.String(), "-fixtures DIR\nfor payloads of other events")
	assert.Contains(t, stderr.String(), "-response JSON for that call's result (a PostToolUse payload)")
	assert.Contains(t, stderr.String(), "-changed-output")
	assert.Contains(t, stderr.String(), "Claude Code's default for each event")
}

// TestTextReport checks the summary for people: what ran, the findings
// grouped, and the first failing run in full.
func TestTextReport(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-event", "PreToolUse", "-matcher", listenHere, "-values", "quote", "-timeout", "1m",
		"--", "testdata/bash/handbuilt.sh"}, &stdout, &stderr)
	assert.Equal(t, exitFindings, code, stderr.String())
	out := stdout.String()
	for _, want := range []string{
		"hookcheck: testdata/bash/handbuilt.sh\n",
		"fixtures as they are",
		"time per run: median ",
		"  answers: 7 answered (5 rewrites: updatedInput or an updated tool output; 0 blocked or denied; 2 failed open), 0 silent\n",
		"  failed open: 2 runs after which Claude Code goes on with the call as if there were no hook, e.g.\n    pretooluse-mcp-listen_here /tool_input/room = quote: answer ignored: stdout looks like a JSON object but is not valid JSON",
		"  set to one value whatever the model sent, the model's value lost (reported; -changed NAME if the member is the hook's own):\n",
		"    pretooluse-mcp-listen_here /tool_input/fingerprint = \"",
		"  member changed: 3 runs\n    /tool_input/fingerprint: member changed from \"7c2e9a41\" to \"",
		"/tool_input/seat-count: member lost (a hook must keep every tool_input member it did not change)\n        pretooluse-mcp-listen_here + unusual member names\n",
		"FAIL: ",
		"  member lost: ",
		"  member lost: 5 runs\n    /tool_input/room: member lost (a hook must keep every tool_input member it did not change)\n        pretooluse-mcp-listen_here\n",
		"  invalid stdout: ",
		"pretooluse-mcp-listen_here /tool_input/room = quote\n",
		"\nFirst failing run: pretooluse-mcp-listen_here\n",
		"  /tool_input/room: member lost (a hook must keep every tool_input member it did not change)\n",
		"  exit code 0 after ",
		"  stdin:\n    {\"session_id\":",
		`"tool_input":{"room":"general","fingerprint":"7c2e9a41"}`,
		"  stdout:\n    {\"hookSpecificOutput\":",
		`"updatedInput":{"fingerprint":"`,
		"  stderr: (empty)\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "PASS")
}

func TestPassReport(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-event", "SessionEnd", "--", "echo", "session over"}, &stdout, &stderr)
	assert.Equal(t, exitPass, code, stderr.String())
	assert.Contains(t, stdout.String(), "\nPASS: ")
	assert.Contains(t, stdout.String(), " 0 with a tricky value")
	assert.Contains(t, stdout.String(), "  answers: 1 answered (0 rewrites: updatedInput or an updated tool output; 0 blocked or denied; 0 failed open), 0 silent\n")
	assert.NotContains(t, stdout.String(), "failed open: ")
	assert.Empty(t, stderr.String(), "no progress line when stderr is not a terminal")
}

// TestSilentHookFails: a check in which the hook answered nothing tested
// nothing, and says how to reach the hook.
func TestSilentHookFails(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-matcher", listenHere, "--", "true"}, &stdout, &stderr)
	assert.Equal(t, exitFindings, code, stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "\nFAIL: the hook answered none of the ")
	assert.Contains(t, out, "hookcheck sent calls of mcp__probe__listen_here")
	assert.Contains(t, out, "-tool NAME -input '{...its tool_input...}'")
	assert.NotContains(t, out, "PASS")
}

// TestBinary runs the built command, for its exit statuses.
func TestBinary(t *testing.T) {
	bin := hooktest.BuildGo(t, ".")
	status := func(args ...string) int {
		err := exec.Command(bin, args...).Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	}
	assert.Equal(t, exitPass, status("-event", "Stop", "--", "echo", "done"))
	assert.Equal(t, exitFindings, status("-event", "Stop", "--", "true"), "a hook that answers nothing tested nothing")
	assert.Equal(t, exitFindings, status("-event", "Stop", "--", "false"), "exit 1 on the payload as it is")
	assert.Equal(t, exitUsage, status())
}

func TestCompileMatcherRefuses(t *testing.T) {
	// What the client would match otherwise, or not at all, is a usage
	// error rather than a silently different selection.
	for _, m := range []string{"Bash|Read(", "(?i)bash", "^(?!Bash)", `Bash\z`} {
		_, err := parseFlags([]string{"-matcher", m, "--", "true"}, io.Discard)
		assert.ErrorContains(t, err, "-matcher: ", m)
	}
}

func TestCompileMatcher(t *testing.T) {
	for _, tc := range []struct {
		matcher string
		yes, no []string
	}{
		{"", []string{"Bash", "mcp__a__b"}, nil},
		{"*", []string{"Bash", "Edit"}, nil},
		{"Bash", []string{"Bash"}, []string{"PowerShell", "Bashful"}},
		{"Edit|Write", []string{"Edit", "Write"}, []string{"NotebookEdit", "Read"}},
		{"Edit, Write", []string{"Edit", "Write"}, []string{"NotebookEdit"}},
		{"Edit.*", []string{"Edit", "NotebookEdit"}, []string{"Write"}},
		{"mcp__.*__listen_here", []string{"mcp__probe__listen_here"}, []string{"mcp__probe__other"}},
		{"mcp__memory", nil, []string{"mcp__memory__create"}},
		{"Task", []string{"Agent"}, []string{"TaskCreate"}},
		{"^Task$", []string{"Agent"}, nil},
		{"Bash.*", []string{"TaskStop"}, nil}, // KillBash's current name
	} {
		m, err := compileMatcher(hook.EventPreToolUse, tc.matcher)
		require.NoError(t, err, tc.matcher)
		for _, s := range tc.yes {
			assert.True(t, m.Match(s), "%q should match %q", tc.matcher, s)
		}
		for _, s := range tc.no {
			assert.False(t, m.Match(s), "%q should not match %q", tc.matcher, s)
		}
	}
	// FileChanged and StopFailure read lists with fewer characters: a
	// comma or a dot makes a regular expression.
	m, err := compileMatcher(hook.EventStopFailure, "server_error, rate_limit")
	require.NoError(t, err)
	assert.False(t, m.Match("rate_limit"))
	m, err = compileMatcher(hook.EventPreToolUse, "Edit, Write")
	require.NoError(t, err)
	assert.True(t, m.Match("Write"))
	_, err = compileMatcher(hook.EventPreToolUse, "Bash|Read(")
	assert.Error(t, err)
}

// toolPayloads returns the built-in PreToolUse and PermissionRequest
// fixtures, one per shape.
func toolPayloads(t *testing.T) []*payload {
	t.Helper()
	var ps []*payload
	for _, fx := range hooktest.Fixtures() {
		if !takesUpdatedInput(fx.Event) {
			continue
		}
		p, err := preparePayload(fx)
		require.NoError(t, err, fx.Name)
		ps = append(ps, p)
	}
	return distinctShapes(ps)
}

// cover sums up a set of tricky cases: the values each slot received.
func cover(cases []*testCase) map[slot][]string {
	m := map[slot][]string{}
	for _, c := range cases {
		m[slot{c.p, c.field}] = append(m[slot{c.p, c.field}], c.value.Name)
	}
	return m
}

func TestTrickyCasesCoveringSet(t *testing.T) {
	ps := toolPayloads(t)
	values := hooktest.TrickyValues()
	var slots []slot
	for _, p := range ps {
		for i := range p.fields {
			slots = append(slots, slot{p, i})
		}
	}
	require.Greater(t, len(slots)*3, len(values), "the test wants more members than values")

	for _, perMember := range []int{1, 2, 3} {
		cases := trickyCases(ps, values, perMember, false, nil, nil)
		got := cover(cases)
		used := map[string]int{}
		for _, s := range slots {
			names := got[s]
			assert.Len(t, names, perMember, "%s %s", s.p.name, s.p.fields[s.field].Key)
			assert.Equal(t, len(names), len(uniq(names)), "a slot gets a value twice")
			for _, n := range names {
				used[n]++
			}
		}
		assert.Len(t, used, len(values), "every value at least once, per-member %d", perMember)
		assert.Len(t, cases, max(len(slots)*perMember, len(values)))
		// The values are dealt evenly.
		lo, hi := len(cases), 0
		for _, n := range used {
			lo, hi = min(lo, n), max(hi, n)
		}
		assert.LessOrEqual(t, hi-lo, 1, "per-member %d", perMember)
	}

	full := trickyCases(ps, values, 1, true, nil, nil)
	assert.Len(t, full, len(slots)*len(values))
}

func TestTrickyCasesFewMembers(t *testing.T) {
	// One fixture, two members, 42 values: every value still goes in.
	var ps []*payload
	for _, p := range toolPayloads(t) {
		if p.name == "pretooluse-mcp-listen_here" {
			ps = append(ps, p)
		}
	}
	require.Len(t, ps, 1)
	values := hooktest.TrickyValues()
	cases := trickyCases(ps, values, 3, false, nil, nil)
	assert.Len(t, cases, len(values))
	used := map[string]bool{}
	for _, c := range cases {
		used[c.value.Name] = true
	}
	assert.Len(t, used, len(values))
}

func TestTrickyCasesFocus(t *testing.T) {
	ps := toolPayloads(t)
	values := hooktest.TrickyValues()
	var room, kept, read []slot
	for _, p := range ps {
		for i, f := range p.fields {
			switch {
			case p.name == "pretooluse-mcp-listen_here" && f.Key == "room":
				room = append(room, slot{p, i})
			case p.name == "pretooluse-bash":
				kept = append(kept, slot{p, i})
			case p.name == "pretooluse-edit":
				read = append(read, slot{p, i})
			}
		}
	}
	require.Len(t, room, 1)
	cases := trickyCases(ps, values, 2, false, room, nil)
	assert.Len(t, cover(cases)[room[0]], len(values), "one kept member receives every value")

	cases = trickyCases(ps, values, 2, false, kept, read)
	got := cover(cases)
	for _, group := range [][]slot{kept, read} {
		used := map[string]bool{}
		for _, s := range group {
			assert.GreaterOrEqual(t, len(got[s]), 2)
			for _, n := range got[s] {
				used[n] = true
			}
		}
		assert.Len(t, used, len(values), "the members of a focus receive every value among them")
	}
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func TestNewCaseReplacesOneMemberByteForByte(t *testing.T) {
	p, err := preparePayload(fixture{Name: "x", Event: hook.EventPreToolUse, JSON: jsontext.Value(`{
		"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": {"command": "ls", "description": "K\u00f6ln", "timeout": 2.50},
		"tool_use_id": "toolu_1"}`)})
	require.NoError(t, err)
	control := newCase(p, -1, hooktest.Tricky{})
	assert.Equal(t, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"K\u00f6ln","timeout":2.50},"tool_use_id":"toolu_1"}`, string(control.payload))
	c := newCase(p, 0, hooktest.Tricky{Name: "lone", JSON: jsontext.Value(`"\ud800"`)})
	assert.Equal(t, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"\ud800","description":"K\u00f6ln","timeout":2.50},"tool_use_id":"toolu_1"}`, string(c.payload))
	assert.Equal(t, `{"command":"\ud800","description":"K\u00f6ln","timeout":2.50}`, string(c.toolInput))
	assert.Equal(t, "x /tool_input/command = lone", c.name())
}

// answered returns an outcome of c whose answer carries updatedInput upd.
func answered(c *testCase, upd string) *outcome {
	return &outcome{c: c, res: result{rec: &hooktest.Recorder{UpdatedInput: jsontext.Value(upd)}}}
}

func TestConstantMembers(t *testing.T) {
	p, err := preparePayload(fixture{Name: "x", Event: hook.EventPreToolUse, JSON: jsontext.Value(
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","fp":"old","bg":false,"n":1}}`)})
	require.NoError(t, err)
	val := func(s string) hooktest.Tricky { return hooktest.Tricky{Name: s, JSON: jsontext.Value(s)} }
	outs := func() []*outcome {
		return []*outcome{
			// The hook sets fp to "mine" and bg to false, whatever the
			// model sent; it copies command; it rewrites n from 1 to 1.0
			// always.
			answered(newCase(p, -1, hooktest.Tricky{}), `{"command":"ls","fp":"mine","bg":false,"n":1.0}`),
			answered(newCase(p, 0, val(`"x"`)), `{"command":"x","fp":"mine","bg":false,"n":1.0}`),
			answered(newCase(p, 1, val(`"y"`)), `{"command":"ls","fp":"mine","bg":false,"n":1.0}`),
			answered(newCase(p, 2, val(`true`)), `{"command":"ls","fp": "mine","bg":false,"n":1.0}`),
		}
	}
	runs := outs()
	consts := analyze(runs, nil, nil, false, false, false)
	var names []string
	for _, c := range consts[p] {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"fp", "bg"}, names, "fp and bg: one value out, several in; n: only respelled; command: copied")
	// Nothing tells fp from the seed bug's "lobby" but the author's
	// word: every run that changed it is reported, and says so.
	for _, o := range runs {
		var fp, bg []finding
		for _, f := range o.findings {
			switch f.Pointer {
			case "/tool_input/fp":
				fp = append(fp, f)
			case "/tool_input/bg":
				bg = append(bg, f)
			default:
				t.Errorf("%s: %s", o.c.name(), f.Message)
			}
		}
		require.Len(t, fp, 1, o.c.name())
		assert.Equal(t, kindMangled, fp[0].Kind)
		assert.Equal(t, "member set to one value", fp[0].Detail)
		assert.Contains(t, fp[0].Message, `the hook sets it to "mine" whatever the model sent (2 different values in, one out), so the model's value is lost; if the member is the hook's own, give -changed fp`)
		if o.c.pointer() == "/tool_input/bg" {
			require.Len(t, bg, 1, "bg changed only where the model sent true")
		} else {
			assert.Empty(t, bg, "bg false in, false out: kept")
		}
		require.Len(t, o.notes, 1, o.c.name())
		assert.Equal(t, "/tool_input/n", o.notes[0].Pointer)
		assert.Equal(t, hooktest.ProblemRespelled, o.notes[0].Detail)
	}

	// -changed declares the hook's own members, and n: nothing left.
	runs = outs()
	consts = analyze(runs, []string{"fp", "bg", "n"}, nil, false, false, false)
	for _, o := range runs {
		assert.Empty(t, o.findings, o.c.name())
		assert.Empty(t, o.notes, o.c.name())
	}
	assert.Len(t, consts[p], 2)
}

func TestMemberFindingsJudgeAsClaudeCode(t *testing.T) {
	p, err := preparePayload(fixture{Name: "x", Event: hook.EventPreToolUse, JSON: jsontext.Value(
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"a":{"x":1,"y":[1,2]},"b":"K\u00f6ln","c":2,"d":"\ud800"}}`)})
	require.NoError(t, err)
	control := newCase(p, -1, hooktest.Tricky{})
	fs, notes := memberFindings(control, jsontext.Value(`{"c":2, "b":"K\u00f6ln", "a":{"x": 1, "y": [1, 2]},"d":"\ud800"}`), nil, nil, claudeCode)
	assert.Empty(t, fs, "whitespace and order do not count")
	assert.Empty(t, notes)
	fs, notes = memberFindings(control, jsontext.Value(`{"a":{"x":1,"y":[1,3]},"b":"Köln","d":"\ufffd"}`), nil, nil, claudeCode)
	require.Len(t, notes, 1)
	assert.Equal(t, "/tool_input/b", notes[0].Pointer)
	assert.Contains(t, notes[0].Message, "a note")
	require.Len(t, fs, 3)
	assert.Equal(t, finding{Kind: kindMangled, Pointer: "/tool_input/a/y/1", Detail: hooktest.ProblemChanged,
		Message: `/tool_input/a/y/1: member changed from 2 to 3 (` + hooktest.RuleKeep + "); if the hook changes it on purpose, give -changed a"}, fs[0])
	assert.Equal(t, kindLost, fs[1].Kind)
	assert.Equal(t, "/tool_input/c", fs[1].Pointer)
	assert.True(t, strings.HasPrefix(fs[1].Message, "/tool_input/c: member lost"))
	assert.Equal(t, "/tool_input/d", fs[2].Pointer, "a lone surrogate turned into U+FFFD is a change")

	// Changed where the tricky value is: a value the hook mangled, not a
	// change it made; no -changed hint.
	quote := newCase(p, 3, hooktest.Tricky{Name: "quote", JSON: jsontext.Value(`"a\"b"`)})
	fs, _ = memberFindings(quote, jsontext.Value(`{"a":{"x":1,"y":[1,2]},"b":"K\u00f6ln","c":2,"d":"a\\\"b"}`), nil, nil, claudeCode)
	require.Len(t, fs, 1)
	assert.Equal(t, "/tool_input/d", fs[0].Pointer)
	assert.NotContains(t, fs[0].Message, "-changed")

	// A value Claude Code never sends, respelled where it was put: a
	// finding (of the strict tier); respelled elsewhere: a note.
	big := newCase(p, 2, hooktest.Tricky{Name: "big integer", JSON: jsontext.Value(`12345678901234567890`)})
	fs, notes = memberFindings(big, jsontext.Value(`{"a":{"x":1,"y":[1,2]},"b":"Köln","c":12345678901234567000,"d":"\ud800"}`), nil, nil, claudeCode)
	require.Len(t, fs, 1)
	assert.Equal(t, "/tool_input/c", fs[0].Pointer)
	assert.Equal(t, hooktest.ProblemRespelled, fs[0].Detail)
	assert.Contains(t, fs[0].Message, "12345678901234567890 to 12345678901234567000")
	require.Len(t, notes, 1)
	assert.Equal(t, "/tool_input/b", notes[0].Pointer)
}

// TestMatcherSelectsAsClaudeCode: -matcher sends only the payloads Claude
// Code would run the hook on, for the -event events (PreToolUse by
// default).
func TestMatcherSelectsAsClaudeCode(t *testing.T) {
	names := func(args ...string) []string {
		t.Helper()
		cfg, err := parseFlags(append(args, "--", "true"), io.Discard)
		require.NoError(t, err)
		ps, err := loadFixtures(cfg)
		require.NoError(t, err)
		var out []string
		for _, p := range ps {
			out = append(out, p.name)
			if len(cfg.events) == 1 {
				assert.Equal(t, cfg.events[0], p.event, p.name)
			}
		}
		return out
	}
	bash := names("-matcher", "Bash")
	assert.Contains(t, bash, "pretooluse-bash")
	assert.NotContains(t, bash, "posttooluse-bash", "a PreToolUse hook never sees PostToolUse")
	assert.NotContains(t, bash, "permissiondenied-bash")
	assert.Contains(t, names("-matcher", "Task"), "pretooluse-agent", "legacy tool names still match")
	assert.Equal(t, []string{"sessionstart-compact"}, names("-event", "SessionStart", "-matcher", "compact"))
	both := names("-event", "PreToolUse,PermissionRequest", "-matcher", "Bash")
	assert.Contains(t, both, "permissionrequest-bash")
	stop := names("-event", "Stop", "-matcher", "anything")
	assert.Contains(t, stop, "stop", "Stop takes no matcher: its hooks always run")

	_, err := parseFlags([]string{"-matcher", "Bash|Read(", "--", "true"}, io.Discard)
	assert.ErrorContains(t, err, "-matcher: ")
	_, err = parseFlags([]string{"-tool", "mcp__a__b", "--", "true"}, io.Discard)
	assert.ErrorContains(t, err, "-tool mcp__a__b needs -input")
	_, err = parseFlags([]string{"-tool", "mcp__a__b", "-input", "[1]", "--", "true"}, io.Discard)
	assert.ErrorContains(t, err, "-input: ")
	_, err = parseFlags([]string{"-matcher", "Bash", "-tool", "mcp__a__b", "-input", "{}", "--", "true"}, io.Discard)
	assert.ErrorContains(t, err, "does not match -tool mcp__a__b")
	_, err = parseFlags([]string{"-input", "{}", "--", "true"}, io.Discard)
	assert.ErrorContains(t, err, "-input needs -tool")
}
