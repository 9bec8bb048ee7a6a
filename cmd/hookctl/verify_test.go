package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/calllog"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

// recordedRuns returns the hooks of testdata/verify/settings.json, each
// with the observation of its recorded run in the real Claude Code
// 2.1.332 (observed-N.json, saved by verify -keep), nil where none.
func recordedRuns(t *testing.T, set ...string) ([]found, []*observed) {
	t.Helper()
	folder := filepath.Join(append([]string{"testdata", "verify"}, set...)...)
	hs, err := settings.ReadFile(filepath.Join(folder, "settings.json"))
	require.NoError(t, err)
	var fs []found
	var os_ []*observed
	for i, h := range hs {
		fs = append(fs, found{src: settings.Source{Scope: settings.ScopeProject}, file: ".claude/settings.json", hook: h})
		b, err := os.ReadFile(filepath.Join(folder, fmt.Sprintf("observed-%d.json", i+1)))
		if err != nil {
			os_ = append(os_, &observed{Plan: planFor(h, "/run/proj")})
			continue
		}
		var o observed
		require.NoError(t, json.Unmarshal(b, &o), "observed-%d.json", i+1)
		os_ = append(os_, &o)
	}
	return fs, os_
}

// TestVerifyReportOfRecordedRuns builds the report of runs recorded in
// the real client: a guard that exits 2, a hook whose program is
// missing, a rewrite that drops a member (Claude Code refuses it), a
// prompt hook that adds context, and a Notification hook verify cannot
// fire.
func TestVerifyReportOfRecordedRuns(t *testing.T) {
	fs, obs := recordedRuns(t)
	require.Len(t, fs, 5)
	var reps []hookReport
	for i := range fs {
		reps = append(reps, buildReport(i+1, fs[i], obs[i]))
	}

	g := reps[0]
	assert.Equal(t, statusFired, g.Status)
	assert.Equal(t, "blocked", g.Did)
	assert.Equal(t, "blocked", g.Outcome)
	require.NotNil(t, g.Valid)
	assert.True(t, *g.Valid)
	assert.Contains(t, g.Told, "no bash here", "what the model was told")
	assert.Equal(t, 600.0, g.Timeout, "no timeout: Claude Code's default")
	assert.Greater(t, g.Time, 0.0)
	assert.Equal(t, ".claude/settings.json:4", g.File)

	m := reps[1]
	assert.Equal(t, statusDidNotRun, m.Status)
	assert.Contains(t, m.Why, "spawn failure")
	assert.Contains(t, m.Why, "/nonexistent/guard")
	assert.Equal(t, "ran", m.Outcome, "without onFailure the call goes on")
	assert.True(t, m.problem())
	assert.NotContains(t, m.Why, "scratch HOME")
	home := fs[1]
	home.hook.Handler = settings.Handler{Command: "~/bin/guard"}
	assert.Contains(t, buildReport(2, home, obs[1]).Why, "scratch HOME that holds only ~/.claude", "a program under HOME is not in the scratch")

	rw := reps[2]
	assert.Equal(t, statusFired, rw.Status)
	assert.Equal(t, "rewrote", rw.Did)
	assert.Equal(t, []string{"/file_path (member changed)", "/content (member lost)"}, rw.Lost)
	assert.Equal(t, "blocked", rw.Outcome, "Claude Code refused the rewrite")
	assert.Contains(t, rw.Told, "failed schema validation")
	assert.Empty(t, rw.Received, "the tool never ran")

	c := reps[3]
	assert.Equal(t, statusFired, c.Status)
	assert.Equal(t, "added context", c.Did)
	assert.Empty(t, c.Outcome, "no call")

	n := reps[4]
	assert.Equal(t, statusNotChecked, n.Status)
	assert.Contains(t, n.Why, "Notification")
	assert.False(t, n.problem())

	var table bytes.Buffer
	printReport(&table, reps)
	for _, want := range []string{"did not run", "not checked", "the rewrite changed /file_path; the rewrite lost /content (member lost)", "0.", "/600s"} {
		assert.Contains(t, table.String(), want)
	}
	var js bytes.Buffer
	require.NoError(t, writeReportJSON(&js, reps))
	var back []hookReport
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, reps, back, "the JSON report reads back as built")
}

// TestVerifyReportNotFired: a hook that never started is a problem, with
// the reason the run tells.
func TestVerifyReportNotFired(t *testing.T) {
	fs, obs := recordedRuns(t)
	o := *obs[0]
	o.Runs = nil
	r := buildReport(1, fs[0], &o)
	assert.Equal(t, statusNotFired, r.Status)
	assert.True(t, r.problem())
	assert.Contains(t, r.Why, "refused before the hook ran", "the model was told an error: %s", r.Why)
	o.ClaudeExit, o.ClaudeStderr = 1, "boom"
	assert.Equal(t, "claude exited 1: boom", buildReport(1, fs[0], &o).Why)

	// A hook killed at its timeout with onFailure block.
	f := fs[0]
	f.hook.Handler.OnFailure = "block"
	o = *obs[0]
	o.Runs = []hookRecord{{Event: "PreToolUse", Code: -1, Seconds: 5}}
	o.Fail = clientrun.FailHang
	r = buildReport(1, f, &o)
	assert.Equal(t, "timed out (blocked: onFailure)", r.Did)
	assert.Equal(t, float64(hangTimeout), r.Timeout)
	require.NotNil(t, r.Valid)
	assert.False(t, *r.Valid)
}

// TestVerifyAnswers judges answers as Claude Code reads them.
func TestVerifyAnswers(t *testing.T) {
	for _, c := range []struct {
		event, out string
		code       int
		valid      bool
		did        string
	}{
		{"PreToolUse", "", 0, true, "no decision"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, 0, true, "blocked"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, 0, true, "allowed"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}`, 0, false, "blocked"},
		{"PreToolUse", `{"decision":`, 0, false, "no decision"},
		{"PreToolUse", `{"continue":false}`, 2, false, "blocked"},
		{"PreToolUse", "", 1, false, "failed, exit 1"},
		{"Stop", `{"decision":"block","reason":"go on"}`, 0, true, "blocked"},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}`, 0, true, "added context"},
		{"PostToolUse", "plain", 0, false, "no decision"},
		{"UserPromptSubmit", "plain", 0, true, "added context"},
		{"Stop", `{"continue":false}`, 0, true, "stopped"},
	} {
		run := hookRecord{Event: c.event, Out: c.out, Code: c.code, In: []byte(`{"tool_input":{"a":1}}`)}
		valid, why := judgeAnswer(c.event, run)
		assert.Equal(t, c.valid, valid, "%s %q exit %d: %s", c.event, c.out, c.code, why)
		if !valid {
			assert.NotEmpty(t, why)
		}
		did, _ := whatItDid(found{hook: settings.Hook{Event: c.event}}, run)
		assert.Equal(t, c.did, did, "%s %q exit %d", c.event, c.out, c.code)
	}
	did, _ := whatItDid(found{hook: settings.Hook{Event: "PreToolUse", Handler: settings.Handler{Async: true}}}, hookRecord{Code: -1})
	assert.Equal(t, "ran in the background (async: decides nothing)", did, "an async hook killed at teardown did not time out")

	// A rewrite that keeps every member reports none lost.
	did, lost := whatItDid(found{hook: settings.Hook{Event: "PreToolUse"}}, hookRecord{Code: 0, In: []byte(`{"tool_input":{"a":1,"b":[2]}}`),
		Out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"b":[2],"a":1,"c":3}}}`})
	assert.Equal(t, "rewrote", did)
	assert.Empty(t, lost, "members reordered and added are kept")
}

// TestVerifyPlans: the call each matcher and if rule gets, and the hooks
// verify says it cannot check.
func TestVerifyPlans(t *testing.T) {
	plan := func(event, matcher, ifRule, typ string) verifyPlan {
		return planFor(settings.Hook{Event: event, Matcher: matcher, Handler: settings.Handler{Type: typ, If: ifRule}}, "/p")
	}
	for _, c := range []struct {
		event, matcher, ifRule, typ string
		tool, skip, in              string
	}{
		{"PreToolUse", "Bash", "", "", "Bash", "", "hookctl-verify-marker.txt"},
		{"PreToolUse", "", "", "command", "Bash", "", ""},
		{"PreToolUse", "Edit|MultiEdit", "", "", "Edit", "", `"old_string":"before"`},
		{"PostToolUse", "Write", "", "", "Write", "", "hookctl-verify-written.txt"},
		{"PostToolUseFailure", "Bash", "", "", "Bash", "", "exit 3"},
		{"PreToolUse", "mcp__github__create_issue", "", "", "mcp__github__create_issue", "", ""},
		{"PreToolUse", "mcp__memory__.*", "", "", "mcp__memory__hookctl_probe", "", ""},
		{"PreToolUse", "^mcp__", "", "", "", "", ""},
		{"PreToolUse", "Bash", "Bash(rm -rf *)", "", "Bash", "", `"rm -rf hookctl-verify-marker.txt"`},
		{"PreToolUse", "Bash", "Bash(git push:*)", "", "Bash", "", `"git push hookctl-verify-marker.txt"`},
		{"PreToolUse", "Bash", "Bash(rm -rf /)", "", "", "one exact command", ""},
		{"PreToolUse", "Write", "Write(~/.ssh/*)", "", "", "outside the project", ""},
		{"PreToolUse", "Write", "Write(src/**/*.go)", "", "Write", "", "/p/src/sub/hookctl-verify-marker.go"},
		{"PreToolUse", "Bash", "Write(*)", "", "", "does not catch", ""},
		{"PreToolUse", "WebFetch", "", "", "", "catches no tool", ""},
		{"PreToolUse", "Bash", "", "http", "", "command hooks only", ""},
		{"SessionStart", "startup", "", "", "", "", ""},
		{"SessionStart", "compact", "", "", "", "does not match", ""},
		{"SessionEnd", "", "", "", "", "", ""},
		{"Notification", "", "", "", "", "cannot fire Notification", ""},
		{"Bogus", "", "", "", "", "not a Claude Code hook event", ""},
	} {
		p := plan(c.event, c.matcher, c.ifRule, c.typ)
		name := strings.Join([]string{c.event, c.matcher, c.ifRule, c.typ}, " ")
		if c.skip != "" {
			assert.Contains(t, p.Skip, c.skip, name)
			continue
		}
		assert.Empty(t, p.Skip, name)
		if c.tool == "" && c.event != "PreToolUse" {
			assert.Nil(t, p.Call, name)
			continue
		}
		require.NotNil(t, p.Call, name)
		if c.tool != "" {
			assert.Equal(t, c.tool, p.Call.Tool, name)
		}
		assert.Contains(t, p.Call.Input, c.in, name)
	}
	assert.NotNil(t, plan("PreToolUse", "Edit", "", "").Pre, "an Edit is preceded by a Read")
	pre := plan("PreToolUse", "Edit", "Edit(src/*.go)", "").Pre
	require.NotNil(t, pre, "an Edit an if rule picks too")
	assert.Equal(t, `{"file_path":"/p/src/hookctl-verify-marker.go"}`, pre.Input)
	assert.True(t, plan("PermissionRequest", "Bash", "", "").NotAllowed)
}

// TestVerifyToldWithoutTheRecorder: the block message names the hook's
// command, not the recorder in front of it.
func TestVerifyToldWithoutTheRecorder(t *testing.T) {
	fs, obs := recordedRuns(t)
	r := buildReport(1, fs[0], obs[0])
	assert.Equal(t, "PreToolUse:Bash hook error: [/usr/bin/bash -c echo 'no bash here' >&2; exit 2]: no bash here\n", r.Told)
}

// TestVerifyReportOfRecordedEvents replays runs recorded for every event
// verify fires: the turn's events, PermissionRequest (the call not
// allowed), PostToolUseFailure (a failing call), PostToolBatch, an Edit
// (after a Read), an MCP rewrite (the probe's arguments are what the tool
// received) and a Bash hook with an if rule.
func TestVerifyReportOfRecordedEvents(t *testing.T) {
	fs, obs := recordedRuns(t, "events")
	require.Len(t, fs, 9)
	for i := range fs {
		r := buildReport(i+1, fs[i], obs[i])
		assert.Equal(t, statusFired, r.Status, "%d %s: %s", i+1, r.Event, r.Why)
		require.NotNil(t, r.Valid, r.Event)
		assert.True(t, *r.Valid, r.Event)
		switch r.Event {
		case "SessionStart", "Stop", "SessionEnd":
			assert.Empty(t, r.Outcome, r.Event)
		case "PermissionRequest":
			assert.Equal(t, "blocked", r.Outcome, "-p refuses a call the hook does not allow")
		case "PostToolUseFailure":
			assert.Equal(t, "ran", r.Outcome)
			assert.Contains(t, r.Told, "Exit code 3")
		}
		if r.Matcher == "mcp__github__create_issue" {
			assert.Equal(t, "rewrote", r.Did)
			assert.Equal(t, `{"probe":"hookctl verify","extra":1}`, string(r.Received), "what the probe MCP server received")
		}
		if fs[i].hook.Handler.If != "" {
			v, ok := clientrun.ValueAt(obs[i].Runs[0].In, "tool_input", "command")
			require.True(t, ok)
			assert.Equal(t, `"rm hookctl-verify-marker.txt"`, string(v), "the if rule's wildcard filled with the marker")
		}
	}
}

// TestVerifyCallLog: a run names a call log in its folder, and the lines a
// hook built with the library writes there are shown next to its verdict,
// in the table and in -json; a hook that writes none shows nothing.
func TestVerifyCallLog(t *testing.T) {
	dir := t.TempDir()
	env := withCallLog([]string{"PATH=/bin"}, dir)
	assert.Equal(t, "HOOK_CALL_LOG="+filepath.Join(dir, callLogName), env[len(env)-1])
	assert.Empty(t, readCallLog(dir), "no log written: nothing shown")

	path := filepath.Join(dir, callLogName)
	require.NoError(t, calllog.Append(path, &calllog.Line{Event: "PreToolUse", Tool: "Bash", Answer: "deny", Exit: 0, DurationMS: 1.25}))
	require.NoError(t, calllog.Append(path, &calllog.Line{Event: "PreToolUse", Tool: "Bash", Answer: "error", Exit: 1, DurationMS: 3,
		Error: "hook: handler panicked: boom", At: "main.guard main.go:42"}))
	lines := readCallLog(dir)
	require.Equal(t, []string{
		"PreToolUse Bash: deny, exit 0, 1.2 ms",
		`PreToolUse Bash: error, exit 1, 3.0 ms, "hook: handler panicked: boom" at main.guard main.go:42`,
	}, lines)

	r := hookReport{N: 3, Event: "PreToolUse", Command: "guard", Status: statusFired, Log: lines}
	var b bytes.Buffer
	printReport(&b, []hookReport{r})
	assert.Contains(t, b.String(), "#3 log: PreToolUse Bash: deny, exit 0, 1.2 ms\n")
	assert.Contains(t, b.String(), "#3 log: PreToolUse Bash: error, exit 1")
	b.Reset()
	require.NoError(t, writeReportJSON(&b, []hookReport{r}))
	var back []hookReport
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	require.Len(t, back, 1)
	assert.Equal(t, lines, back[0].Log)
}
