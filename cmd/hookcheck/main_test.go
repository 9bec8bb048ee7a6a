package main

import (
	"bytes"
	"context"
	"errors"
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
		"taken as the hook's own",
		"    pretooluse-mcp-listen_here /tool_input/fingerprint\n",
		"FAIL: ",
		"  member lost: ",
		"  member lost: 3 runs\n    /tool_input/room: member lost (a hook must keep every tool_input member it did not change)\n        pretooluse-mcp-listen_here\n",
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
	code := run(context.Background(), []string{"-event", "SessionEnd", "--", "true"}, &stdout, &stderr)
	assert.Equal(t, exitPass, code, stderr.String())
	assert.Contains(t, stdout.String(), "\nPASS: ")
	assert.Contains(t, stdout.String(), " 0 with a tricky value")
	assert.Empty(t, stderr.String(), "no progress line when stderr is not a terminal")
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
	assert.Equal(t, exitPass, status("-event", "Stop", "--", "true"))
	assert.Equal(t, exitFindings, status("-event", "Stop", "--", "false"), "exit 1 on the payload as it is")
	assert.Equal(t, exitUsage, status())
}

func TestCompileMatcherRefuses(t *testing.T) {
	// What the client would match otherwise, or not at all, is a usage
	// error rather than a silently different selection.
	for _, m := range []string{"Bash|Read(", "(?i)bash", "^(?!Bash)", `Bash\z`} {
		_, err := compileMatcher(m)
		assert.Error(t, err, m)
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
		m, err := compileMatcher(tc.matcher)
		require.NoError(t, err, tc.matcher)
		for _, s := range tc.yes {
			assert.True(t, m(s), "%q should match %q", tc.matcher, s)
		}
		for _, s := range tc.no {
			assert.False(t, m(s), "%q should not match %q", tc.matcher, s)
		}
	}
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

func TestOwnedMembers(t *testing.T) {
	p, err := preparePayload(fixture{Name: "x", Event: hook.EventPreToolUse, JSON: jsontext.Value(
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","fp":"old","bg":false,"n":1}}`)})
	require.NoError(t, err)
	val := func(s string) hooktest.Tricky { return hooktest.Tricky{Name: s, JSON: jsontext.Value(s)} }
	outs := []*outcome{
		// The hook sets fp to "mine" and bg to false, whatever they hold;
		// it copies command; it rewrites n from 1 to 1.0 always.
		answered(newCase(p, -1, hooktest.Tricky{}), `{"command":"ls","fp":"mine","bg":false,"n":1.0}`),
		answered(newCase(p, 0, val(`"x"`)), `{"command":"x","fp":"mine","bg":false,"n":1.0}`),
		answered(newCase(p, 1, val(`"y"`)), `{"command":"ls","fp":"mine","bg":false,"n":1.0}`),
		answered(newCase(p, 2, val(`true`)), `{"command":"ls","fp": "mine","bg":false,"n":1.0}`),
	}
	owned := analyze(outs, nil)
	assert.ElementsMatch(t, []string{"fp", "bg"}, owned[p], "fp: set in the control run; bg: set when the input differed; n: only rewritten")
	for _, o := range outs {
		require.Len(t, o.findings, 1, o.c.name())
		f := o.findings[0]
		assert.Equal(t, "/tool_input/n", f.Pointer, "only n is reported, in %s: %s", o.c.name(), f.Message)
		assert.Equal(t, kindMangled, f.Kind)
		assert.Equal(t, hooktest.ProblemRewritten, f.Detail)
	}

	// -changed names n: nothing left.
	owned = analyze(outs, []string{"n"})
	for _, o := range outs {
		assert.Empty(t, o.findings, o.c.name())
	}
	assert.Len(t, owned[p], 2)
}

func TestMemberFindingsIgnoreWhitespaceAndOrder(t *testing.T) {
	in := jsontext.Value(`{"a":{"x":1,"y":[1,2]},"b":"K\u00f6ln","c":2}`)
	assert.Empty(t, memberFindings(in, jsontext.Value(`{"c":2, "b":"K\u00f6ln", "a":{"x": 1, "y": [1, 2]}}`), nil))
	fs := memberFindings(in, jsontext.Value(`{"a":{"x":1,"y":[1,2]},"b":"Köln"}`), nil)
	require.Len(t, fs, 2)
	assert.Equal(t, finding{Kind: kindMangled, Pointer: "/tool_input/b", Detail: hooktest.ProblemRewritten,
		Message: `/tool_input/b: member rewritten from "K\u00f6ln" to "Köln" (` + hooktest.RuleKeep + ")"}, fs[0])
	assert.Equal(t, kindLost, fs[1].Kind)
	assert.Equal(t, "/tool_input/c", fs[1].Pointer)
	assert.True(t, strings.HasPrefix(fs[1].Message, "/tool_input/c: member lost"))
}
